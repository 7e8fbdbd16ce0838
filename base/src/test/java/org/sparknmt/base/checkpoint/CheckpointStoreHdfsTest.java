package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.NameNodeAudit;

/**
 * The checkpoint store on a real HDFS whose NameNode counts what it serves: a checkpoint whose block has
 * no live replica costs HDFS's block retries (about 20 s by default) at every read, and a Transformer-base
 * checkpoint is about 2.3 GB, so each checkpoint is read once when a store opens the run, and a checkpoint
 * step (write, then prune) reads none.
 */
class CheckpointStoreHdfsTest {
  @RegisterExtension
  static final MiniHdfs HDFS = new MiniHdfs(Map.of(NameNodeAudit.KEY, NameNodeAudit.class.getName()));

  @Test
  void aCheckpointWithoutAReplicaIsReadOnceAndACheckpointStepReadsNoCheckpoint() throws Exception {
    String run = HDFS.path("/missing-block");
    Configuration hadoop = new Configuration();
    // HDFS's pauses between block retries in milliseconds instead of seconds: the same retries, sooner
    hadoop.setInt("dfs.client.retry.window.base", 1);
    // a client of its own: the cached one of this URI has the default pauses
    hadoop.setBoolean("fs.hdfs.impl.disable.cache", true);
    CheckpointStore writer = new CheckpointStore(run, hadoop);
    writer.save(CheckpointStoreTest.state(10, 1.0), model("a"), null);
    writer.save(CheckpointStoreTest.state(20, 2.0), model("b"), null);
    String model10 = "/missing-block/checkpoints/step-00000010/" + CheckpointStore.MODEL;
    String model20 = "/missing-block/checkpoints/step-00000020/" + CheckpointStore.MODEL;
    String checksums20 = "/missing-block/checkpoints/step-00000020/" + CheckpointStore.CHECKSUMS;
    DistributedFileSystem fs = (DistributedFileSystem) new Path(run).getFileSystem(hadoop);
    ExtendedBlock block = fs.getClient().getLocatedBlocks(model10, 0).get(0).getBlock();
    assertEquals(1, HDFS.hdfs().cluster().corruptBlockOnDataNodesByDeletingBlockFile(block));
    NameNodeAudit audit = NameNodeAudit.of(HDFS.hdfs().cluster());

    // a rerun resumes from step 20: opening the run verifies each checkpoint once
    CheckpointStore store = new CheckpointStore(run, hadoop);
    assertEquals(20, store.latest().orElseThrow().step());
    assertTrue(store.damaged().get("step-00000010").startsWith("unreadable: "), store.damaged().toString());
    long opens = audit.count("open", model10);
    assertTrue(opens >= 1, "step 10's model was never opened");
    assertEquals(1, audit.count("open", model20), "latest() and damaged() read step 20 more than once");
    assertEquals(1, audit.count("open", checksums20));

    // then writes and prunes checkpoints as training does: a checkpoint step reads no checkpoint's bytes
    long bytesRead = hdfsBytesRead();
    for (long step = 30; step <= 50; step += 10) {
      store.save(CheckpointStoreTest.state(step, step / 10.0), model("c".repeat(MODEL_BYTES)), null);
      store.prune(10);
    }
    assertEquals(List.of(20L, 30L, 40L, 50L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
    assertEquals(0, hdfsBytesRead() - bytesRead, "bytes read by three checkpoint steps and a listing");
    assertEquals(opens, audit.count("open", model10), "the checkpoint without a replica was read again");
    assertEquals(1, audit.count("open", model20), "a prune read step 20's model again");
    assertEquals(1, audit.count("open", checksums20), "a prune verified step 20 again");
    for (long step = 30; step <= 50; step += 10) {
      String written = "/missing-block/checkpoints/" + RunLayout.checkpointName(step) + "/";
      assertEquals(0, audit.count("open", written + CheckpointStore.MODEL) + audit.count("open", written
          + CheckpointStore.STATE) + audit.count("open", written + CheckpointStore.CHECKSUMS), written + " was read back");
    }

    // a store of its own (the next run, translate) reads each checkpoint once when it opens the run
    CheckpointStore reader = new CheckpointStore(run, hadoop);
    bytesRead = hdfsBytesRead();
    assertEquals(50, reader.latest().orElseThrow().step());
    reader.prune(10);
    long expected = 0;
    for (FileStatus file : fs.listStatus(new Path(run, "checkpoints/" + RunLayout.checkpointName(50)))) {
      expected += file.getLen();
    }
    long read = hdfsBytesRead() - bytesRead;
    // steps 20 to 50 read once each, step 10 (no replica) not at all; step 50 is the largest
    assertTrue(read >= 3L * MODEL_BYTES && read <= 4 * expected, "bytes read opening the run: " + read);
    assertEquals(1, audit.count("open", "/missing-block/checkpoints/" + RunLayout.checkpointName(50) + "/"
        + CheckpointStore.MODEL));
  }

  /** A model large enough that reading it back would show in the byte counts (several HDFS packets). */
  private static final int MODEL_BYTES = 1 << 20;

  /** What every HDFS client of this JVM has read, from Hadoop's own per-scheme statistics. */
  private static long hdfsBytesRead() {
    return FileSystem.getAllStatistics().stream().filter(s -> s.getScheme().equals("hdfs"))
        .mapToLong(FileSystem.Statistics::getBytesRead).sum();
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }
}
