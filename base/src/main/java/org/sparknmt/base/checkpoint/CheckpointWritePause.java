package org.sparknmt.base.checkpoint;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.run.RunLayout;

/**
 * A fault-test hook: the write of the checkpoint of each of {@code steps} stops for {@code pause}
 * after its files are complete in the temporary folder and before the rename that publishes them, so
 * that a test (or {@code scripts/chaos}, which kills the driver inside the writes it chose) can kill the
 * driver inside a write rather than hope to hit one. {@code train} reads it once from
 * {@value #VARIABLE}; every other run has {@link #NONE}.
 */
public record CheckpointWritePause(List<Long> steps, Duration pause) {
  public static final String VARIABLE = "SPARKNMT_TEST_CHECKPOINT_PAUSE";
  public static final CheckpointWritePause NONE = new CheckpointWritePause(List.of(), Duration.ZERO);
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointWritePause.class);

  public CheckpointWritePause {
    steps = List.copyOf(steps);
  }

  /**
   * {@value #VARIABLE}{@code =STEP[,STEP...]:SECONDS} in {@code environment}, or {@link #NONE} when it is
   * unset or empty.
   */
  public static CheckpointWritePause fromEnvironment(Map<String, String> environment) {
    String value = environment.getOrDefault(VARIABLE, "").trim();
    if (value.isEmpty()) {
      return NONE;
    }
    String[] parts = value.split(":", -1);
    if (parts.length != 2 || !parts[0].matches("\\d+(,\\d+)*") || !parts[1].matches("\\d+")) {
      throw new IllegalArgumentException(VARIABLE + "=" + value + ": expected STEP:SECONDS or STEP,STEP...:SECONDS"
          + " (pause the write of each checkpoint STEP for SECONDS before its rename), e.g. 8:600");
    }
    return new CheckpointWritePause(Arrays.stream(parts[0].split(",")).map(Long::valueOf).toList(),
        Duration.ofSeconds(Long.parseLong(parts[1])));
  }

  /** Pauses when {@code name} is this hook's checkpoint; {@code temporary} holds its complete files. */
  void beforeRename(String name, Path temporary) throws InterruptedIOException {
    if (steps.stream().noneMatch(step -> name.equals(RunLayout.checkpointName(step)))) {
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
