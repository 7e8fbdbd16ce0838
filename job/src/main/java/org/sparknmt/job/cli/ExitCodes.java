package org.sparknmt.job.cli;

import com.typesafe.config.ConfigException;
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
    commandLine.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException
        || e instanceof ConfigException || e instanceof UsageException ? USAGE : FAILURE);
    commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("sparknmt " + cmd.getCommandName() + ": " + describe(e));
      if (Boolean.getBoolean("sparknmt.stacktrace")) {
        e.printStackTrace(cmd.getErr());
      }
      return cmd.getExitCodeExceptionMapper().getExitCode(e);
    });
    return commandLine;
  }

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getName() : message;
  }
}
