package org.sparknmt.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine;

/** Runs {@code sparknmt evaluate ...} as the CLI parses it, on a test's Spark context instead of a new one. */
public final class EvaluateCli {
  private EvaluateCli() {}

  /** The command's output lines. */
  public static List<String> evaluate(JavaSparkContext sc, String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "evaluate";
    System.arraycopy(args, 0, full, 1, args.length);
    CommandLine.ParseResult parsed = Main.commandLine().parseArgs(full);
    EvaluateCommand command = parsed.subcommand().commandSpec().commandLine().getCommand();
    StringWriter out = new StringWriter();
    command.run(sc, new PrintWriter(out));
    return out.toString().lines().toList();
  }
}
