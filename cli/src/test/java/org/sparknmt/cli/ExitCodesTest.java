package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** Exit codes by what went wrong: 2 for the command line, 1 for everything else. */
class ExitCodesTest {
  @Command(name = "failing")
  static final class Failing implements Callable<Integer> {
    private final Exception failure;

    Failing(Exception failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      throw failure;
    }
  }

  private final StringWriter err = new StringWriter();

  private int exitOf(Exception failure) {
    CommandLine commandLine = ExitCodes.configure(new CommandLine(new Failing(failure)));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute();
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(ExitCodes.USAGE, exitOf(new UsageException("--beam must be at least 1")));
    assertEquals(ExitCodes.USAGE, exitOf(new ConfigException.Generic("--set x: expected key=value")));
    assertTrue(err.toString().contains("sparknmt failing: --beam must be at least 1"), err.toString());
  }

  @Test
  void everythingElseExitsOne() {
    assertEquals(ExitCodes.FAILURE, exitOf(new IllegalArgumentException("no training pair survived validation")));
    assertEquals(ExitCodes.FAILURE, exitOf(new IllegalStateException("checkpoint c is unreadable")));
    assertEquals(ExitCodes.FAILURE, exitOf(new IOException("Connection refused")));
    assertTrue(err.toString().contains("sparknmt failing: no training pair survived validation"), err.toString());
  }
}
