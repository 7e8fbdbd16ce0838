package org.sparknmt.job.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.job.S3Server;

/**
 * The checkpoint store on s3a:// against a real S3-compatible server. S3A renames a folder by copying
 * each object and deleting the originals, so a driver killed while a checkpoint is published can leave a
 * {@code step-N} folder with only some of its files: its checksums say so, and it is skipped, never loaded.
 */
class CheckpointStoreS3Test {
  @RegisterExtension static final S3Server S3 = new S3Server();

  @Test
  void checkpointsAreWrittenListedPrunedAndResolvedOnS3a() throws IOException {
    CheckpointStore store = new CheckpointStore(S3.uri("store-run"), S3.hadoop());
    store.checkWritable(1 << 20);
    for (long step = 10; step <= 40; step += 10) {
      store.save(CheckpointStoreTest.state(step, 5.0 - step / 10.0), model("model " + step), null);
      store.prune(2);
    }
    assertEquals(List.of(30L, 40L), steps(store));
    assertEquals(40, store.resolve("best").step());
    CheckpointStore reader = new CheckpointStore(S3.uri("store-run"), S3.hadoop());
    assertEquals(List.of(30L, 40L), steps(reader), "a store of its own reads what the writer left");
    assertEquals("model 40", new String(reader.openModel(reader.resolve("latest")).readAllBytes(), StandardCharsets.UTF_8));
    FileSystem fs = new Path(S3.uri("store-run")).getFileSystem(S3.hadoop());
    for (var status : fs.listStatus(store.root())) {
      assertFalse(status.getPath().getName().startsWith("."), "left behind: " + status.getPath());
    }
  }

  @Test
  void aFolderAnInterruptedRenameLeftHalfCopiedIsSkippedNotLoaded() throws IOException {
    CheckpointStore store = new CheckpointStore(S3.uri("half-run"), S3.hadoop());
    store.save(CheckpointStoreTest.state(10, 1.0), model("a"), null);
    store.save(CheckpointStoreTest.state(20, 2.0), model("b"), null);
    FileSystem fs = store.root().getFileSystem(S3.hadoop());
    // what a killed rename of step 30 leaves: its state and checksums copied, its model not yet
    Path half = new Path(store.root(), CheckpointStore.name(30));
    for (String file : new String[] {CheckpointStore.STATE, CheckpointStore.CHECKSUMS}) {
      FileUtil.copy(fs, new Path(store.root(), CheckpointStore.name(20) + "/" + file), fs, new Path(half, file), false,
          S3.hadoop());
    }
    CheckpointStore rerun = new CheckpointStore(S3.uri("half-run"), S3.hadoop());
    assertEquals(20, rerun.latest().orElseThrow().step());
    assertTrue(rerun.damaged().get(CheckpointStore.name(30)).contains("model.zip is missing"), rerun.damaged().toString());
  }

  private static List<Long> steps(CheckpointStore store) throws IOException {
    return store.list().stream().map(CheckpointStore.Checkpoint::step).toList();
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }
}
