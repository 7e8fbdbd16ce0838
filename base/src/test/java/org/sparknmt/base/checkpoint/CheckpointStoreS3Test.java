package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.testkit.S3Server;

/**
 * The checkpoint store on s3a:// against a real S3-compatible server. S3A renames a folder by copying each
 * object and deleting the originals, so there a checkpoint keeps the unique name it was written under and
 * is published by one conditional write of the pointer {@code step-N}: a reader sees the whole checkpoint
 * or none.
 */
class CheckpointStoreS3Test {
  @RegisterExtension static final S3Server S3 = new S3Server();

  @Test
  void checkpointsArePublishedByPointersListedPrunedAndResolved() throws IOException {
    CheckpointStore store = new CheckpointStore(S3.uri("store-run"), S3.hadoop());
    store.checkWritable(1 << 20);
    long bytesRead = s3aBytesRead();
    for (long step = 10; step <= 40; step += 10) {
      // a model of 256 KiB: reading one back would show in the bytes read
      store.save(CheckpointStoreTest.state(step, 5.0 - step / 10.0), model("model " + step + " ".repeat(1 << 18)), null);
      store.prune(2);
    }
    // only the pointers of the two checkpoints pruned, to find their folders: under 100 bytes each
    long read = s3aBytesRead() - bytesRead;
    assertTrue(read > 0 && read < 200, "bytes read by four checkpoint steps: " + read);
    assertEquals(List.of(30L, 40L), steps(store));
    assertEquals(40, store.resolve("best").step());
    CheckpointStore reader = new CheckpointStore(S3.uri("store-run"), S3.hadoop());
    assertEquals(List.of(30L, 40L), steps(reader), "a store of its own reads what the writer left");
    assertEquals("model 40", model(reader, "latest").strip());
    // what is left: the two pointers and the two folders they name, nothing of the pruned ones
    FileSystem fs = store.root().getFileSystem(S3.hadoop());
    List<String> entries = Arrays.stream(fs.listStatus(store.root())).map(f -> f.getPath().getName()).sorted().toList();
    assertEquals(4, entries.size(), entries.toString());
    assertTrue(entries.get(0).startsWith(".step-00000030.v-") && entries.get(1).startsWith(".step-00000040.v-")
        && entries.get(2).equals("step-00000030") && entries.get(3).equals("step-00000040"), entries.toString());

    // an averaged checkpoint (sparknmt average) is published the same way, and named, not listed
    reader.save("avg-last-2-step-00000040", CheckpointStoreTest.state(40, null), model("averaged"), null);
    assertEquals("averaged", model(reader, "avg-last-2-step-00000040"));
    assertEquals(List.of(30L, 40L), steps(reader));
    assertTrue(fs.getFileStatus(new Path(store.root(), "avg-last-2-step-00000040")).isFile(), "not a pointer");
  }

  @Test
  void aWriteKilledBeforeItsPointerIsInvisibleAndRemovedByTheNextLockHolder() throws IOException {
    CheckpointStore store = new CheckpointStore(S3.uri("killed-run"), S3.hadoop());
    store.save(CheckpointStoreTest.state(10, 1.0), model("a"), null);
    store.save(CheckpointStoreTest.state(20, 2.0), model("b"), null);
    FileSystem fs = store.root().getFileSystem(S3.hadoop());
    // what a driver killed inside the write of step 30 leaves: its complete folder, no pointer
    Path written = fs.listStatus(store.root(), p -> p.getName().startsWith(".step-00000020.v-"))[0].getPath();
    Path killed = new Path(store.root(), ".step-00000030.v-killed-writer-0");
    FileUtil.copy(fs, written, fs, killed, false, S3.hadoop());
    CheckpointStore rerun = new CheckpointStore(S3.uri("killed-run"), S3.hadoop());
    assertEquals(List.of(10L, 20L), steps(rerun));
    assertTrue(rerun.damaged().isEmpty(), rerun.damaged().toString());
    rerun.removeLeftovers();
    assertFalse(fs.exists(killed), "the unpublished folder of the killed writer stayed");
    assertEquals(List.of(10L, 20L), steps(rerun), "removing leftovers touched a published checkpoint");

    // the rerun reaches step 20 again: the pointer is replaced on its ETag and the folder it named deleted
    rerun.save(CheckpointStoreTest.state(20, 2.0), model("b again"), null);
    assertEquals("b again", model(new CheckpointStore(S3.uri("killed-run"), S3.hadoop()), "20"));
    assertFalse(fs.exists(written), "the replaced checkpoint's folder stayed");

    // a write that failed before its pointer (retried by training): the writer's next prune removes its folder,
    // knowing it without reading any pointer
    assertThrows(IOException.class, () -> rerun.save(CheckpointStoreTest.state(40, 4.0), out -> {
      out.write(1);
      throw new IOException("the store went away");
    }, null));
    assertEquals(1, fs.listStatus(store.root(), p -> p.getName().startsWith(".step-00000040.v-")).length);
    rerun.prune(10);
    assertEquals(0, fs.listStatus(store.root(), p -> p.getName().startsWith(".step-00000040.v-")).length);

    // a run copied from HDFS brings step-N folders: they are read, and replaced by a pointer when rewritten
    Path copied = new Path(store.root(), RunLayout.checkpointName(30));
    Path step20 = fs.listStatus(store.root(), p -> p.getName().startsWith(".step-00000020.v-"))[0].getPath();
    FileUtil.copy(fs, step20, fs, copied, false, S3.hadoop());
    CheckpointStore copy = new CheckpointStore(S3.uri("killed-run"), S3.hadoop());
    assertEquals(List.of(10L, 20L, 30L), steps(copy));
    copy.save(CheckpointStoreTest.state(30, 3.0), model("c"), null);
    assertTrue(fs.getFileStatus(copied).isFile(), "the copied folder was not replaced by a pointer");
    assertEquals("c", model(new CheckpointStore(S3.uri("killed-run"), S3.hadoop()), "30"));
  }

  private static String model(CheckpointStore store, String spec) throws IOException {
    try (InputStream in = store.openModel(store.resolve(spec))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** What every S3A client of this JVM has read, from Hadoop's own per-scheme statistics. */
  private static long s3aBytesRead() {
    return FileSystem.getAllStatistics().stream().filter(s -> s.getScheme().equals("s3a"))
        .mapToLong(FileSystem.Statistics::getBytesRead).sum();
  }

  private static List<Long> steps(CheckpointStore store) throws IOException {
    return store.list().stream().map(CheckpointStore.Checkpoint::step).toList();
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }
}
