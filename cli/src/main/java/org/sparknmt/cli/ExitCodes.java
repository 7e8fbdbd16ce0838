package org.sparknmt.cli;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.util.Optional;
import org.apache.spark.SparkException;
import org.sparknmt.base.UsageException;
import picocli.CommandLine;

/**
 * 0 ok; 2 usage error: the command line cannot be run as given (an unknown, missing or bad option,
 * a bad config key or value, a file, column or checkpoint that the options name but that is not
 * there: picocli's {@code ParameterException}, Typesafe Config's {@code ConfigException},
 * {@link UsageException}); 1 any other failure (data that fails validation, a checkpoint trained
 * with another vocabulary, a corrupt file, I/O, an object store refusing the credentials). Either prints one
 * line naming what went wrong;
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
    Optional<String> denied = objectStoreDenial(e);
    if (denied.isPresent()) {
      return denied.get();
    }
    Throwable shown = cause(e);
    String message = shown.getMessage();
    if (message == null) {
      return shown.getClass().getName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /**
   * S3A reports a refused request (403: an unknown access key, a wrong secret, no credentials, a bucket policy)
   * as an {@link AccessDeniedException} on the object it asked for, whose reason is the SDK's exception text
   * ending with S3's error code ("...:SignatureDoesNotMatch"; {@code null} where the refused request was a HEAD,
   * whose answer has no body): said as the object, the code and what to check.
   */
  private static Optional<String> objectStoreDenial(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException denied && denied.getFile() != null && denied.getFile().startsWith("s3a:")) {
        String reason = denied.getReason() == null ? "" : denied.getReason();
        String code = reason.substring(reason.lastIndexOf(':') + 1);
        return Optional.of(denied.getFile() + ": access denied" + (code.matches("[A-Za-z]+") && !code.equals("null")
            ? " (" + code + ")" : "") + ": check fs.s3a.access.key and fs.s3a.secret.key (or"
            + " fs.s3a.aws.credentials.provider) and their permissions on the bucket");
      }
    }
    return Optional.empty();
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
