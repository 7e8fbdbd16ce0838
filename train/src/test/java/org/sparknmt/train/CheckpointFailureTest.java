package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.files.StorageFailures;

/** The line a run ends with when a checkpoint cannot be written: where, why, and what a rerun resumes from. */
class CheckpointFailureTest {
  private static final Path TARGET = new Path("hdfs://nn:9000/runs/a/checkpoints/step-00000012");

  @Test
  void aWriteFailingForTheWholeBudgetNamesTheCauseAndTheCheckpointToResumeFrom() {
    IOException e = TrainingLoop.checkpointFailure(TARGET, new StorageFailures.RetriesExhausted(9, Duration.ofSeconds(601),
        new IOException("File /runs/a/checkpoints/.step-00000012.tmp-1/model.zip could only be written to 0 of the 1 minReplication nodes.")),
        "step-00000008");
    assertEquals("writing checkpoint hdfs://nn:9000/runs/a/checkpoints/step-00000012 failed for 601 s (9 attempts): "
        + "File /runs/a/checkpoints/.step-00000012.tmp-1/model.zip could only be written to 0 of the 1 minReplication nodes.; "
        + "the last checkpoint written is step-00000008; a rerun of the same command resumes from it", e.getMessage());
  }

  @Test
  void outOfSpaceSaysSoAndThatEarlierCheckpointsAreKept() {
    IOException e = TrainingLoop.checkpointFailure(TARGET, new StorageFailures.RetriesExhausted(1, Duration.ZERO,
        new DSQuotaExceededException("The DiskSpace quota of /runs/a is exceeded: quota = 1 B")), null);
    assertEquals("out of space writing checkpoint hdfs://nn:9000/runs/a/checkpoints/step-00000012: "
        + "The DiskSpace quota of /runs/a is exceeded: quota = 1 B; earlier checkpoints are kept; "
        + "there is no earlier checkpoint of this run, so a rerun starts over once there is room", e.getMessage());
  }
}
