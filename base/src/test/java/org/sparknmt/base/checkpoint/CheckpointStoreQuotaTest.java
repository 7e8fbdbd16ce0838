package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.files.StorageFailures;
import org.sparknmt.testkit.MiniHdfs;

/** Out of space on a real HDFS (a space quota): a clear error at once, and the earlier checkpoints stay intact. */
class CheckpointStoreQuotaTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();

  private static TrainingState state(long step) {
    return CheckpointStoreTest.state(step, null);
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aWriteOverTheQuotaFailsAtOnceNamingThePathAndKeepsEarlierCheckpoints() throws IOException {
    String run = HDFS.path("/quota-run");
    Configuration conf = new Configuration();
    conf.setInt("dfs.replication", 1);
    CheckpointStore store = new CheckpointStore(run, conf);
    store.save(state(10), model("ten"), null);
    DistributedFileSystem dfs = (DistributedFileSystem) HDFS.hdfs().cluster().getFileSystem();
    Path folder = new Path("/quota-run");
    // 1 MB of room: less than the one block (128 MB) a new file reserves
    dfs.setQuota(folder, HdfsConstants.QUOTA_DONT_SET, dfs.getContentSummary(folder).getSpaceConsumed() + (1 << 20));
    try {
      long start = System.nanoTime();
      IOException save = assertThrows(IOException.class, () -> store.save(state(20), model("twenty"), null));
      IOException probe = assertThrows(IOException.class, () -> store.checkWritable(0));
      double seconds = (System.nanoTime() - start) / 1e9;

      assertTrue(save.getMessage().startsWith("out of space: writing checkpoint " + run + "/checkpoints/step-00000020 failed: "
          + "The DiskSpace quota of /quota-run is exceeded"), save.getMessage());
      assertTrue(StorageFailures.isPermanent(save), "a quota error would be retried");
      assertTrue(probe.getMessage().startsWith("out of space: cannot write checkpoints to " + run + "/checkpoints: "
          + "The DiskSpace quota of /quota-run is exceeded"), probe.getMessage());
      assertTrue(seconds < 10, "took " + seconds + " s");
      assertEquals(List.of(10L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
      assertTrue(store.verify(store.latest().orElseThrow().path()).isEmpty());
    } finally {
      dfs.setQuota(folder, HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET);
    }
    store.checkWritable(0);
    store.save(state(20), model("twenty"), null);
    store.prune(5);
    assertEquals(List.of(10L, 20L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
  }

  @Test
  void lessFreeSpaceThanACheckpointNeedsIsAnErrorBeforeTraining() throws IOException {
    CheckpointStore store = new CheckpointStore(HDFS.path("/small-disk"), new Configuration());
    IOException e = assertThrows(IOException.class, () -> store.checkWritable(Long.MAX_VALUE / 2));
    assertTrue(e.getMessage().startsWith("out of space: " + HDFS.path("/small-disk") + "/checkpoints has ")
        && e.getMessage().contains("MB free, a checkpoint of this model needs about"), e.getMessage());
  }
}
