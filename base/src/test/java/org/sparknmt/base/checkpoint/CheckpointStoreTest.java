package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint store's rules on the local file system: atomic names, checksums, pruning, naming. */
class CheckpointStoreTest {
  @TempDir Path dir;

  private CheckpointStore store() throws IOException {
    return new CheckpointStore(dir.toUri().toString(), new Configuration());
  }

  /** A state at {@code step}, with a validation loss in its metrics when one is given. */
  static TrainingState state(long step, Double validLoss) {
    return new TrainingState(step, 0, 0, 1, 1e-3, 1, "abc", "conf",
        validLoss == null ? Map.of() : Map.of("valid_loss", validLoss), Double.POSITIVE_INFINITY, 0, 1.0, null);
  }

  private static TrainingState validated(long step, double validLoss, double validBleu) {
    return state(step, null).validated(validLoss, Map.of("valid_loss", validLoss, "valid_bleu", validBleu));
  }

  private static CheckpointStore.ModelWriter model(String text) {
    return out -> out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void savedCheckpointsAreListedInStepOrderWithState() throws IOException {
    CheckpointStore store = store();
    store.save(state(20, 2.0), model("b"), null);
    store.save(state(10, 3.0), model("a"), null);
    List<CheckpointStore.Checkpoint> all = store.list();
    assertEquals(List.of(10L, 20L), all.stream().map(CheckpointStore.Checkpoint::step).toList());
    assertEquals(2.0, all.get(1).state().metrics().get("valid_loss"));
    assertEquals(20, store.latest().orElseThrow().step());
    assertTrue(Files.isDirectory(dir.resolve("checkpoints/step-00000020")));
  }

  @Test
  void theTestHookStopsAWriteWithItsFilesCompleteAndUnpublished() throws Exception {
    CheckpointStore store = new CheckpointStore(dir.toUri().toString(), new Configuration(),
        CheckpointWritePause.fromEnvironment(Map.of(CheckpointWritePause.VARIABLE, "20:600")));
    store.save(state(10, null), model("a"), null);
    java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
    Thread writer = new Thread(() -> {
      try {
        store.save(state(20, null), model("b"), null);
        ended.complete(null);
      } catch (Throwable t) {
        ended.complete(t);
      }
    });
    writer.start();
    Path checksums = waitForTemporaryChecksums(dir.resolve("checkpoints"), java.time.Duration.ofSeconds(30));
    assertTrue(Files.isRegularFile(checksums.resolveSibling(CheckpointStore.MODEL)));
    assertTrue(Files.notExists(dir.resolve("checkpoints/step-00000020")), "published before the pause ended");
    // interrupt inside the pause: an interrupt that reached the file system's code before it could be
    // swallowed there, and the write would then sleep out its 600 s
    awaitPause(writer, java.time.Duration.ofSeconds(30));
    writer.interrupt();
    Throwable failure = ended.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(failure instanceof IOException, "the interrupted write did not fail: " + failure);
    // what a kill in the pause leaves: the complete temporary folder, no step-20, step-10 intact
    assertTrue(Files.isDirectory(checksums.getParent()));
    assertEquals(List.of(10L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
  }

  @Test
  void theTestHookNamesItsVariableOnABadValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CheckpointWritePause.fromEnvironment(Map.of(CheckpointWritePause.VARIABLE, "8")));
    assertTrue(e.getMessage().startsWith(CheckpointWritePause.VARIABLE + "=8: expected STEP:SECONDS"), e.getMessage());
    assertEquals(CheckpointWritePause.NONE, CheckpointWritePause.fromEnvironment(Map.of()));
    assertEquals(List.of(8L, 24L),
        CheckpointWritePause.fromEnvironment(Map.of(CheckpointWritePause.VARIABLE, "8,24:600")).steps());
    assertThrows(IllegalArgumentException.class,
        () -> CheckpointWritePause.fromEnvironment(Map.of(CheckpointWritePause.VARIABLE, "8,:600")));
  }

  private static void awaitPause(Thread writer, java.time.Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (writer.getState() == Thread.State.TIMED_WAITING && java.util.Arrays.stream(writer.getStackTrace())
          .anyMatch(frame -> frame.getClassName().equals(CheckpointWritePause.class.getName()))) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the writer did not reach the pause in " + timeout);
  }

  private static Path waitForTemporaryChecksums(Path checkpoints, java.time.Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      try (var folders = Files.list(checkpoints)) {
        var found = folders.filter(f -> f.getFileName().toString().startsWith(".step-00000020.tmp-"))
            .map(f -> f.resolve(CheckpointStore.CHECKSUMS)).filter(Files::isRegularFile).findFirst();
        if (found.isPresent()) {
          return found.get();
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no complete temporary folder of step 20 in " + timeout);
  }

  @Test
  void temporaryFoldersOfInterruptedWritesAreIgnored() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, null), model("a"), null);
    Path partial = Files.createDirectories(dir.resolve("checkpoints/.step-00000020.tmp-123"));
    Files.writeString(partial.resolve(CheckpointStore.MODEL), "half");
    assertEquals(10, store.latest().orElseThrow().step());
  }

  @Test
  void aFolderWithoutChecksumsOrWithDamagedFilesIsSkipped() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, null), model("a"), null);
    store.save(state(20, null), model("b"), null);
    store.save(state(30, null), model("c"), null);
    Files.delete(dir.resolve("checkpoints/step-00000030/" + CheckpointStore.CHECKSUMS));
    Files.writeString(dir.resolve("checkpoints/step-00000020/" + CheckpointStore.MODEL), "B");
    assertEquals(List.of(10L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
    // Hadoop's local file system notices the damage through its own .crc files before our SHA-256 does
    assertTrue(store.verify(new org.apache.hadoop.fs.Path(dir.resolve("checkpoints/step-00000020").toUri())).isPresent());
    assertTrue(store.verify(new org.apache.hadoop.fs.Path(dir.resolve("checkpoints/step-00000030").toUri()))
        .orElseThrow().contains("checksums.json is missing"));
  }

  @Test
  void pruneKeepsTheLastKAndTheBest() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, 5.0), model("a"), null);
    store.save(state(20, 1.0), model("b"), null);
    store.save(state(30, 4.0), model("c"), null);
    store.save(state(40, 3.0), model("d"), null);
    store.save(state(50, 2.0), model("e"), null);
    store.prune(2);
    assertEquals(List.of(20L, 40L, 50L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList());
    assertEquals(20, store.best().orElseThrow().step());
  }

  @Test
  void bestIsByValidationBleuWhenMeasured() throws IOException {
    CheckpointStore store = store();
    store.save(validated(10, 2.0, 20.0), model("a"), null);
    store.save(validated(20, 1.5, 18.0), model("b"), null);
    assertEquals(10, store.best().orElseThrow().step(), "higher BLEU wins over lower loss");
    store.save(validated(30, 1.0, 20.0), model("c"), null);
    assertEquals(30, store.best().orElseThrow().step(), "equal BLEU: the lower loss wins");
  }

  @Test
  void checkpointsAreNamedByLatestBestStepOrFolder() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, 1.0), model("a"), null);
    store.save(state(20, 2.0), model("b"), null);
    store.save("avg-last-2-step-00000020", state(20, null), model("c"), null);
    assertEquals(20, store.resolve("latest").step());
    assertEquals(10, store.resolve("best").step());
    assertEquals(10, store.resolve("step-00000010").step());
    assertEquals(10, store.resolve("10").step());
    assertTrue(store.resolve("avg-last-2-step-00000020").path().getName().startsWith("avg-"));
    assertEquals(List.of(10L, 20L), store.list().stream().map(CheckpointStore.Checkpoint::step).toList(),
        "averaged checkpoints do not take part in resuming");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.resolve("step-00000099"));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  @Test
  void aNanValidationLossOrBleuNeverRanksAsBest() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, Double.NaN), model("a"), null);
    store.save(state(20, 2.0), model("b"), null);
    store.save(state(30, 3.0), model("c"), null);
    assertEquals(20, store.best().orElseThrow().step());
    assertEquals(20, store.resolve("best").step());
    store.prune(1);
    assertEquals(List.of(20L, 30L), steps(store), "prune kept the diverged checkpoint as best");
    store.save(validated(40, 1.0, Double.NaN), model("d"), null);
    store.save(validated(50, 2.5, 10.0), model("e"), null);
    assertEquals(50, store.best().orElseThrow().step(), "a NaN BLEU ranked first");
  }

  @Test
  void anUnreadableOldCheckpointIsSkippedWithTheReason() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, 1.0), model("a"), null);
    store.save(state(20, 2.0), model("b"), null);
    unreadable(dir.resolve("checkpoints/step-00000010"));
    assertEquals(List.of(20L), steps(store));
    assertTrue(store.damaged().get("step-00000010").startsWith("unreadable: "), store.damaged().toString());
    // mid-run, prune after the new checkpoint: the unreadable one neither fails it nor is deleted
    store.save(state(30, 3.0), model("c"), null);
    store.prune(1);
    assertEquals(List.of(20L, 30L), steps(store));
    assertTrue(Files.isDirectory(dir.resolve("checkpoints/step-00000010")));
  }

  @Test
  void anUnreadableNewestCheckpointIsAnErrorNotAnOlderResume() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, 1.0), model("a"), null);
    store.save(state(20, 2.0), model("b"), null);
    unreadable(dir.resolve("checkpoints/step-00000020"));
    IOException e = assertThrows(IOException.class, store::list);
    assertTrue(e.getMessage().startsWith("cannot read checkpoint ") && e.getMessage().contains("step-00000020"),
        e.getMessage());
  }

  @Test
  void checksumsHoldingNullOrAStateWithoutMetricsAreDamage() throws IOException {
    CheckpointStore store = store();
    store.save(state(10, 1.0), model("a"), null);
    store.save(state(20, 2.0), model("b"), null);
    store.save(state(30, 3.0), model("c"), null);
    Path step20 = dir.resolve("checkpoints/step-00000020");
    rewrite(step20.resolve(CheckpointStore.CHECKSUMS), "null");
    Path step30 = dir.resolve("checkpoints/step-00000030");
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode state =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(step30.resolve(CheckpointStore.STATE).toFile());
    state.remove("metrics");
    rewrite(step30.resolve(CheckpointStore.STATE), state.toString());
    com.fasterxml.jackson.databind.node.ObjectNode checksums =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(step30.resolve(CheckpointStore.CHECKSUMS).toFile());
    checksums.put(CheckpointStore.STATE, sha256(state.toString()));
    rewrite(step30.resolve(CheckpointStore.CHECKSUMS), checksums.toString());
    assertEquals(List.of(10L), steps(store));
    Map<String, String> damaged = store.damaged();
    assertEquals("checksums.json holds null, not the checksums", damaged.get("step-00000020"));
    assertTrue(damaged.get("step-00000030").startsWith("state.json is not a training state"), damaged.toString());
  }

  private static List<Long> steps(CheckpointStore store) throws IOException {
    return store.list().stream().map(CheckpointStore.Checkpoint::step).toList();
  }

  /** model.zip replaced by a folder: opening it fails as a file without read permission does (tests run as root). */
  private static void unreadable(Path checkpoint) throws IOException {
    Files.delete(checkpoint.resolve(CheckpointStore.MODEL));
    Files.deleteIfExists(checkpoint.resolve("." + CheckpointStore.MODEL + ".crc"));
    Files.createDirectory(checkpoint.resolve(CheckpointStore.MODEL));
  }

  /** Replaces a checkpoint file's bytes and drops Hadoop's .crc beside it, as a tool other than Hadoop would. */
  private static void rewrite(Path file, String content) throws IOException {
    Files.writeString(file, content);
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }

  private static String sha256(String text) {
    return java.util.HexFormat.of().formatHex(
        CheckpointChecksums.sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
