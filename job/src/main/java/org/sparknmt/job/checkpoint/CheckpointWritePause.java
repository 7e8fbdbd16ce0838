package org.sparknmt.job.checkpoint;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fault-test hook: the write of the checkpoint of {@code step} stops for {@code pause} after its
 * files are complete in the temporary folder and before the rename that publishes them, so that a
 * test can kill the driver inside a write rather than hope to hit one. {@code train} reads it once
 * from {@value #VARIABLE}; every other run has {@link #NONE}.
 */
public record CheckpointWritePause(long step, Duration pause) {
  public static final String VARIABLE = "SPARKNMT_TEST_CHECKPOINT_PAUSE";
  public static final CheckpointWritePause NONE = new CheckpointWritePause(-1, Duration.ZERO);
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointWritePause.class);

  /** {@value #VARIABLE}{@code =STEP:SECONDS} in {@code environment}, or {@link #NONE} when it is unset or empty. */
  public static CheckpointWritePause fromEnvironment(Map<String, String> environment) {
    String value = environment.getOrDefault(VARIABLE, "").trim();
    if (value.isEmpty()) {
      return NONE;
    }
    String[] parts = value.split(":", -1);
    if (parts.length != 2 || !parts[0].matches("\\d+") || !parts[1].matches("\\d+")) {
      throw new IllegalArgumentException(VARIABLE + "=" + value
          + ": expected STEP:SECONDS (pause the write of checkpoint STEP for SECONDS before its rename), e.g. 8:600");
    }
    return new CheckpointWritePause(Long.parseLong(parts[0]), Duration.ofSeconds(Long.parseLong(parts[1])));
  }

  /** Pauses when {@code name} is this hook's checkpoint; {@code temporary} holds its complete files. */
  void beforeRename(String name, Path temporary) throws InterruptedIOException {
    if (step < 0 || !name.equals(CheckpointStore.name(step))) {
      return;
    }
    LOG.warn("{}: the files of checkpoint {} are written to {}; pausing {} s before the rename",
        VARIABLE, name, temporary, pause.toSeconds());
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted in the pause of " + VARIABLE);
    }
  }
}
