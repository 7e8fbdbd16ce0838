package org.sparknmt.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** sparknmt's command line as a user runs it, in this JVM, with what it prints kept for assertions. */
public final class CommandLineRun {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Runs {@code sparknmt ARGS} and returns its exit code. */
  public int execute(String... args) {
    CommandLine commandLine = Main.commandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  public String out() {
    return out.toString();
  }

  public String err() {
    return err.toString();
  }
}
