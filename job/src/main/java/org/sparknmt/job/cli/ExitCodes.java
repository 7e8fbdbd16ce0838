package org.sparknmt.job.cli;

import com.typesafe.config.ConfigException;
import picocli.CommandLine;

/**
 * 0 ok, 2 usage error (bad option, bad config key or value), 1 failure. A failure prints one line
 * naming what went wrong; {@code -Dsparknmt.stacktrace=true} adds the stack trace.
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int USAGE = 2;

  private ExitCodes() {}

  public static CommandLine configure(CommandLine commandLine) {
    commandLine.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException
        || e instanceof ConfigException || e instanceof IllegalArgumentException ? USAGE : FAILURE);
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
