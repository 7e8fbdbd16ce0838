package org.sparknmt.base.files;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.apache.hadoop.fs.ClusterStorageCapacityExceededException;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;

/**
 * What a failed write to a Hadoop file system means for a training run, and the bounded retry of
 * checkpoint writes: a DataNode or NameNode that restarts fails writes for a while and then serves
 * again, so those are retried; a full disk, an exhausted HDFS quota or a permission error does not
 * go away by waiting, so those fail at once.
 */
public final class StorageFailures {
  private StorageFailures() {}

  /** An I/O step that may throw. */
  @FunctionalInterface
  public interface IoAction<T> {
    T run() throws IOException;
  }

  /**
   * Whether {@code e} (or a cause or suppressed exception of it) says the storage is full: an HDFS
   * space or name quota ({@link ClusterStorageCapacityExceededException}) or a local disk without space.
   */
  public static boolean isOutOfSpace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ClusterStorageCapacityExceededException
          || t.getMessage() != null && t.getMessage().contains("No space left on device")) {
        return true;
      }
      for (Throwable suppressed : t.getSuppressed()) {
        if (isOutOfSpace(suppressed)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Failures that waiting does not cure: out of space, or not allowed to write. */
  public static boolean isPermanent(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AccessControlException) {
        return true;
      }
    }
    return isOutOfSpace(e);
  }

  /**
   * {@code e} as an error that says what failed and why in one line, starting "out of space: " when
   * that is the cause, so that every storage failure of a run reads the same way.
   */
  public static IOException failure(String what, IOException e) {
    return new IOException((isOutOfSpace(e) ? "out of space: " : "") + what + ": " + describe(e), e);
  }

  /**
   * The first line of the message of {@code e}'s innermost cause that has one (Hadoop's remote
   * exceptions carry the server's stack trace in later lines).
   */
  public static String describe(Throwable e) {
    String message = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        message = t.getMessage();
      }
    }
    if (message == null) {
      return e.getClass().getName();
    }
    String line = message.lines().findFirst().orElse(message).strip();
    return line.isEmpty() ? e.getClass().getName() : line;
  }

  /** Writes the content of a file to its stream. */
  @FunctionalInterface
  public interface StreamWriter {
    void write(OutputStream out) throws IOException;
  }

  /**
   * Writes {@code content} to {@code stream} and closes it; when the writing fails, the stream is
   * still closed and the error that ended the writing is the one thrown. HDFS output streams rethrow
   * the very exception that broke them from {@code close()}, so a plain try-with-resources would call
   * {@code primary.addSuppressed(primary)} and replace the real error with "Self-suppression not permitted".
   */
  public static void writeAndClose(OutputStream stream, StreamWriter content) throws IOException {
    try {
      content.write(stream);
    } catch (IOException | RuntimeException primary) {
      try {
        stream.close();
      } catch (IOException | RuntimeException e) {
        if (e != primary) {
          primary.addSuppressed(e);
        }
      }
      throw primary;
    }
    stream.close();
  }

  /**
   * Runs {@code action}, retrying failures that may pass (not {@link #isPermanent}) with growing
   * pauses (1, 2, 4 ... 30 s) until it succeeds or {@code budget} has passed since the first
   * failure; then throws the last failure. Each failure is logged with {@code what} and its cause.
   */
  public static <T> T retrying(String what, Duration budget, Logger log, IoAction<T> action)
      throws IOException, InterruptedException {
    long firstFailure = 0;
    long pauseMillis = 1000;
    for (int attempt = 1; ; attempt++) {
      try {
        T result = action.run();
        if (attempt > 1) {
          log.info("{} succeeded at attempt {}, {} s after the first failure", what, attempt,
              String.format("%.1f", (System.nanoTime() - firstFailure) / 1e9));
        }
        return result;
      } catch (IOException e) {
        if (attempt == 1) {
          firstFailure = System.nanoTime();
        }
        long elapsedMillis = (System.nanoTime() - firstFailure) / 1_000_000;
        if (isPermanent(e) || elapsedMillis + pauseMillis > budget.toMillis()) {
          throw new RetriesExhausted(attempt, Duration.ofMillis(elapsedMillis), e);
        }
        log.warn("{} failed (attempt {}): {}; retrying in {} s (giving up {} s after the first failure)", what, attempt,
            describe(e), pauseMillis / 1000, budget.toSeconds());
        Thread.sleep(pauseMillis);
        pauseMillis = Math.min(2 * pauseMillis, 30_000);
      }
    }
  }

  /** The failure {@link #retrying} gave up on, with how many attempts it made and for how long. */
  public static final class RetriesExhausted extends IOException {
    private final int attempts;
    private final Duration elapsed;

    public RetriesExhausted(int attempts, Duration elapsed, IOException last) {
      super(describe(last), last);
      this.attempts = attempts;
      this.elapsed = elapsed;
    }

    public int attempts() {
      return attempts;
    }

    public Duration elapsed() {
      return elapsed;
    }
  }
}
