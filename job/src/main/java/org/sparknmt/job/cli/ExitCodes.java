package org.sparknmt.job.cli;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.SparkException;
import org.sparknmt.datasets.UsageException;
import picocli.CommandLine;

/**
 * 0 ok; 2 usage error: the command line cannot be run as given (an unknown, missing or bad option,
 * a bad config key or value, a file, column or checkpoint that the options name but that is not
 * there: picocli's {@code ParameterException}, Typesafe Config's {@code ConfigException},
 * {@link UsageException}); 1 any other failure (data that fails validation, a checkpoint trained
 * with another vocabulary, a corrupt file, I/O). Either prints one line naming what went wrong;
 * {@code -Dsparknmt.stacktrace=true} adds the stack trace.
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int USAGE = 2;

  private ExitCodes() {}

  public static CommandLine configure(CommandLine commandLine) {
    commandLine.setExitCodeExceptionMapper(thrown -> {
      Throwable e = cause(thrown);
      return e instanceof CommandLine.ParameterException || e instanceof ConfigException
          || e instanceof UsageException ? USAGE : FAILURE;
    });
    commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("sparknmt " + cmd.getCommandName() + ": " + describe(e));
      if (Boolean.getBoolean("sparknmt.stacktrace")) {
        e.printStackTrace(cmd.getErr());
      }
      return cmd.getExitCodeExceptionMapper().getExitCode(e);
    });
    return commandLine;
  }

  /**
   * The one line that says what went wrong with {@code e}: the message of the failure that caused it.
   * A task's failure reaches the driver wrapped in Spark's exceptions ("Job aborted due to stage
   * failure: ... Driver stacktrace:", "Job aborted."), and an {@link UncheckedIOException} without a
   * message of its own only carries an {@link IOException} out of a lambda: both are unwrapped to the
   * named error inside. A message of several lines (a stack trace) is cut to its first.
   */
  public static String describe(Throwable e) {
    Throwable shown = cause(e);
    String message = shown.getMessage();
    if (message == null) {
      return shown.getClass().getName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private static Throwable cause(Throwable e) {
    Throwable shown = e;
    while (shown.getCause() != null && (shown instanceof SparkException
        || shown instanceof UncheckedIOException && shown.getMessage().equals(shown.getCause().toString()))) {
      shown = shown.getCause();
    }
    return shown;
  }
}
