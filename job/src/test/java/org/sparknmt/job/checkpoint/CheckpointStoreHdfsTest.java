package org.sparknmt.job.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.NameNodeAudit;

/**
 * The checkpoint store on a real HDFS whose NameNode counts what it serves: a checkpoint whose block has
 * no live replica costs HDFS's block retries (about 20 s by default) at every read, so it must be read
 * once, not at every listing.
 */
class CheckpointStoreHdfsTest {
  @RegisterExtension
  static final MiniHdfs HDFS = new MiniHdfs(Map.of(NameNodeAudit.KEY, NameNodeAudit.class.getName()));

  @Test
  void aCheckpointWithoutAReplicaIsReadOnceAndEachPruneListsOnce() throws Exception {
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
    String checksums20 = "/missing-block/checkpoints/step-00000020/" + CheckpointStore.CHECKSUMS;
    DistributedFileSystem fs = (DistributedFileSystem) new Path(run).getFileSystem(hadoop);
    ExtendedBlock block = fs.getClient().getLocatedBlocks(model10, 0).get(0).getBlock();
    assertEquals(1, HDFS.hdfs().cluster().corruptBlockOnDataNodesByDeletingBlockFile(block));
    NameNodeAudit audit = NameNodeAudit.of(HDFS.hdfs().cluster());

    // a rerun resumes from step 20, then writes and prunes checkpoints as training does
    CheckpointStore store = new CheckpointStore(run, hadoop);
    assertEquals(20, store.latest().orElseThrow().step());
    assertTrue(store.damaged().get("step-00000010").startsWith("unreadable: "), store.damaged().toString());
    long opens = audit.count("open", model10);
    assertTrue(opens >= 1, "step 10's model was never opened");
    long verifications = audit.count("open", checksums20);
    for (long step = 30; step <= 50; step += 10) {
      store.save(CheckpointStoreTest.state(step, step / 10.0), model("c"), null);
      store.prune(10);
    }
    assertEquals(List.of(20L, 30L, 40L, 50L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());

    assertEquals(opens, audit.count("open", model10), "the checkpoint without a replica was read again");
    // three prunes and the list above: each one listing, which verifies step 20 once
    assertEquals(verifications + 4, audit.count("open", checksums20), "a prune listed the checkpoints more than once");
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }
}
