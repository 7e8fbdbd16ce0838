package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.CheckpointWritePause;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/**
 * The train job on Spark local-cluster (two executor JVMs) with checkpoints on a real HDFS: it
 * learns, checkpoints land on hdfs://, resume is exact, and a corrupt checkpoint is skipped.
 */
@Tag("slow")
class TrainJobTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  private static final TransformerConfig MODEL = TinyRun.MODEL.toBuilder().maxLength(128).build();
  private static String prepared;

  @BeforeAll
  static void prepare() throws IOException {
    prepared = TinyRun.prepare(SPARK.sc(), HDFS, "prepared", 240, 40, 400);
  }

  @Test
  void learnsAndCheckpointsOnHdfs() throws IOException {
    String run = copyOfPrepared("learns");
    TrainJob.Result result = job(run, train(4, 0, 2)).run(TrainJob.Start.RESUME_OR_FRESH);

    assertEquals("max_epochs 4 reached", result.stopReason());
    List<JsonNode> valid = jsonl(run + "/metrics/valid.jsonl");
    assertEquals(4, valid.size(), "one validation per epoch");
    assertTrue(valid.get(3).get("loss").asDouble() < valid.get(0).get("loss").asDouble() - 0.5,
        "validation loss did not fall: " + valid);
    List<JsonNode> rounds = jsonl(run + "/metrics/train.jsonl");
    assertFalse(rounds.isEmpty());
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    // parameters and Adam's two moments, received once (averaged by the executors), not once per worker
    long state = 3L * Float.BYTES * latestModelAt(store, store.latest().orElseThrow()).params().length();
    double trainedBefore = 0;
    for (JsonNode round : rounds) {
      long received = round.get("driver_bytes_in").asLong();
      assertTrue(received >= state && received < 1.5 * state,
          "driver received " + received + " bytes in a round of two workers, state " + state + ": " + round);
      // the rounds after each epoch's validation and checkpoint included, whose time is not the round's
      double seconds = round.get("train_s").asDouble() - trainedBefore;
      assertEquals(round.get("tokens").asDouble(), round.get("tokens_per_s").asDouble() * seconds,
          1e-6 * round.get("tokens").asDouble(), "tokens/s not of the round's own time: " + round);
      trainedBefore = round.get("train_s").asDouble();
    }
    assertTrue(valid.get(3).has("bleu"), "validation BLEU missing: " + valid.get(3));
    assertTrue(valid.get(3).get("valid_s").asDouble() > 0, "validation seconds missing: " + valid.get(3));
    List<CheckpointStore.Checkpoint> checkpoints = store.list();
    assertEquals(2, checkpoints.size(), "keep_last 2 (the best is the last here)");
    assertTrue(checkpoints.get(1).path().toString().startsWith("hdfs://"), checkpoints.get(1).path().toString());
    assertEquals(result.step(), checkpoints.get(1).step());
    assertEquals(4, checkpoints.get(1).state().epoch());

    ComputationGraph averaged = CheckpointAverage.average(store, checkpoints);
    INDArray mean = latestModelAt(store, checkpoints.get(0)).params().add(latestModelAt(store, checkpoints.get(1)).params()).divi(2);
    assertArrayEquals(mean.data().asFloat(), averaged.params().data().asFloat(), 1e-7f);
  }

  /** Bit for bit: what a resumed run must end with. */
  static void assertSameParametersAndAdamState(ComputationGraph straight, ComputationGraph resumed) {
    assertArrayEquals(straight.params().data().asFloat(), resumed.params().data().asFloat(),
        "parameters differ after resume");
    assertArrayEquals(straight.getUpdater().getStateViewArray().data().asFloat(),
        resumed.getUpdater().getStateViewArray().data().asFloat(), "Adam state differs after resume");
  }

  static ComputationGraph latestModelAt(CheckpointStore store, CheckpointStore.Checkpoint checkpoint) throws IOException {
    try (InputStream in = store.openModel(checkpoint)) {
      return ModelArtifact.read(in, checkpoint.state().vocabularySha256(), checkpoint.path().toString()).graph();
    }
  }

  @Test
  void resumeIsExact() throws IOException {
    assertResumeIsExact("");
  }

  /**
   * With an outer optimizer its momentum is part of the state: saved with each checkpoint, restored on resume.
   * With micro-batches (here too, rather than in a run of its own) each part's dropout is seeded from its
   * batch's: a resumed run draws the same masks.
   */
  @Test
  void resumeWithNesterovBlockMomentumAndMicroBatchesIsExact() throws IOException {
    String run = assertResumeIsExact("-nesterov", "train.outer.lr=0.8", "train.outer.momentum=0.5",
        "train.outer.nesterov=true", "train.micro_batches=2");
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    assertTrue(store.openOuter(store.latest().orElseThrow()).isPresent(), "no outer state in the checkpoint");
  }

  /** Trains 12 steps straight and 6 + 6 resumed; returns the resumed run. */
  private String assertResumeIsExact(String suffix, String... outer) throws IOException {
    String straight = copyOfPrepared("straight" + suffix);
    String resumed = copyOfPrepared("resumed" + suffix);
    job(straight, train(10, 12, 0, outer)).run(TrainJob.Start.RESUME_OR_FRESH);
    job(resumed, train(10, 6, 0, outer)).run(TrainJob.Start.RESUME_OR_FRESH);
    TrainJob.Result second = job(resumed, train(10, 12, 0, outer)).run(TrainJob.Start.RESUME);

    assertEquals(12, second.step());
    assertSameParametersAndAdamState(latestModel(straight), latestModel(resumed));
    List<Long> steps = jsonl(resumed + "/metrics/train.jsonl").stream().map(n -> n.get("step").asLong()).toList();
    assertEquals(jsonl(straight + "/metrics/train.jsonl").stream().map(n -> n.get("step").asLong()).toList(), steps,
        "the resumed run's metrics should continue the stopped run's, without gaps or repeats");
    return resumed;
  }

  /**
   * The outer step starts at {@code train.outer.start_step}, its momentum ramping up over
   * {@code train.outer.ramp_steps}: the resumed half starts from a checkpoint written before it, which has no
   * outer state, and must continue through the ramp as the straight run did.
   */
  @Test
  void resumeAcrossTheOuterStartStepIsExact() throws IOException {
    String run = assertResumeIsExact("-delayed", "train.outer.lr=0.8", "train.outer.momentum=0.5",
        "train.outer.nesterov=true", "train.outer.start_step=8", "train.outer.ramp_steps=4", "train.keep_last=10");
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    CheckpointStore.Checkpoint first = store.list().stream().filter(c -> c.step() == 6).findFirst().orElseThrow();
    assertTrue(store.openOuter(first).isEmpty(), "rounds before the start step kept an outer state");
    assertTrue(store.openOuter(store.latest().orElseThrow()).isPresent(), "no outer state after the start step");
  }

  @Test
  void outerMomentumChangesTheTrainedModelFromItsStartStep() throws IOException {
    String plain = copyOfPrepared("outer-plain");
    String momentum = copyOfPrepared("outer-momentum");
    String later = copyOfPrepared("outer-later");
    job(plain, train(10, 4, 0)).run(TrainJob.Start.RESUME_OR_FRESH);
    job(momentum, train(10, 4, 0, "train.outer.momentum=0.5")).run(TrainJob.Start.RESUME_OR_FRESH);
    job(later, train(10, 4, 0, "train.outer.momentum=0.5", "train.outer.start_step=4")).run(TrainJob.Start.RESUME_OR_FRESH);
    float[] plainParams = latestModel(plain).params().data().asFloat();
    assertFalse(java.util.Arrays.equals(plainParams, latestModel(momentum).params().data().asFloat()),
        "the outer step was not applied");
    assertArrayEquals(plainParams, latestModel(later).params().data().asFloat(),
        "rounds before train.outer.start_step must be plain averaging, bit for bit");
  }

  @Test
  void stopsByTrainingTimeAndResumesUntilTheTotalIsSpent() throws IOException {
    String run = copyOfPrepared("time-budget");
    double minutes = 0.05;
    TrainJob.Result first = job(run, train(1000, 0, 1, "train.max_minutes=" + minutes)).run(TrainJob.Start.RESUME_OR_FRESH);
    assertTrue(first.stopReason().startsWith("max_minutes 0.05 reached"), first.stopReason());
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    CheckpointStore.Checkpoint stopped = store.latest().orElseThrow();
    assertEquals(first.step(), stopped.step(), "the final checkpoint is written when time runs out");
    double spent = stopped.state().trainSeconds();
    assertTrue(spent >= minutes * 60, "stopped after " + spent + " s of training");

    TrainJob.Result again = job(run, train(1000, 0, 1, "train.max_minutes=" + minutes)).run(TrainJob.Start.RESUME);
    assertEquals(first.step(), again.step(), "the budget was spent already: a rerun trains no further");

    TrainJob.Result second = job(run, train(1000, 0, 1, "train.max_minutes=" + 2 * minutes)).run(TrainJob.Start.RESUME);
    assertTrue(second.step() > first.step(), "a larger budget resumes training");
    double total = store.latest().orElseThrow().state().trainSeconds();
    assertTrue(total >= 2 * minutes * 60 && total > spent, "stopped after " + total + " s of training in all");
  }

  @Test
  void corruptCheckpointIsSkippedAndTrainingResumesFromThePreviousOne() throws IOException {
    String run = copyOfPrepared("corrupt");
    job(run, train(10, 8, 2, "train.checkpoint_every_steps=4")).run(TrainJob.Start.RESUME_OR_FRESH);
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    assertEquals(8, store.latest().orElseThrow().step());
    corrupt(new org.apache.hadoop.fs.Path(store.latest().orElseThrow().path(), CheckpointStore.MODEL));

    assertEquals(4, store.latest().orElseThrow().step(), "the damaged step-8 must not count as latest");
    TrainJob.Result result = job(run, train(10, 8, 2, "train.checkpoint_every_steps=4")).run(TrainJob.Start.RESUME);
    assertEquals(8, result.step());
    assertEquals(8, store.latest().orElseThrow().step(), "step 8 rewritten intact from step 4");
  }

  @Test
  void noIntactCheckpointIsRefusedUnlessRestartIsAsked() throws IOException {
    String run = copyOfPrepared("all-damaged");
    job(run, train(10, 2, 2)).run(TrainJob.Start.RESUME_OR_FRESH);
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    corrupt(new org.apache.hadoop.fs.Path(store.latest().orElseThrow().path(), CheckpointStore.MODEL));

    IOException refused = assertThrows(IOException.class,
        () -> job(run, train(10, 2, 2)).run(TrainJob.Start.RESUME_OR_FRESH));
    assertTrue(refused.getMessage().contains("none is intact (step-00000002: " + CheckpointStore.MODEL + " has SHA-256"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("--restart"), refused.getMessage());
    assertEquals(1, store.damaged().size(), "the refused run must leave the damaged checkpoint as it was");

    TrainJob.Result restarted = job(run, train(10, 2, 2)).run(TrainJob.Start.RESTART);
    assertEquals(2, restarted.step());
    assertEquals(2, store.latest().orElseThrow().step(), "--restart trains from step 0 and rewrites step 2");
  }

  @Test
  void aChangedDataCursorIsRefusedMidEpochAndAllowedAtAnEpochEnd() throws IOException {
    String run = copyOfPrepared("cursor");
    job(run, train(10, 2, 2)).run(TrainJob.Start.RESUME_OR_FRESH);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> job(run, train(10, 4, 2, 1)).run(TrainJob.Start.RESUME));
    assertTrue(e.getMessage().contains("round 1 of an epoch planned for train.workers = 2 and "
        + "train.averaging_frequency = 2, but this run has 1 and 2"), e.getMessage());
    UsageException seed = assertThrows(UsageException.class,
        () -> job(run, train(10, 4, 2, "train.seed=8")).run(TrainJob.Start.RESUME));
    assertTrue(seed.getMessage().contains("round 1 of an epoch whose batch order is drawn from train.seed = 7, "
        + "but this run has train.seed = 8"), seed.getMessage());

    TrainJob.Result epoch = job(run, train(1, 0, 2)).run(TrainJob.Start.RESUME);
    assertEquals("max_epochs 1 reached", epoch.stopReason());
    TrainJob.Result oneWorker = job(run, train(2, 0, 2, 1)).run(TrainJob.Start.RESUME);
    assertEquals("max_epochs 2 reached", oneWorker.stopReason(), "workers may change at an epoch's end");
    TrainJob.Result otherSeed = job(run, train(3, 0, 2, 1, "train.seed=8")).run(TrainJob.Start.RESUME);
    assertEquals("max_epochs 3 reached", otherSeed.stopReason(), "the seed may change at an epoch's end");
  }

  @Test
  void dataLongerThanTheModelIsRefusedBeforeTraining() throws IOException {
    String run = copyOfPrepared("too-long");
    int longest = PreparedData.open(run, SPARK.sc().hadoopConfiguration()).longestSentence();
    TransformerConfig tooShort = MODEL.toBuilder().maxLength(longest).build();
    UsageException e = assertThrows(UsageException.class,
        () -> new TrainJob(SPARK.sc(), run, tooShort, train(1, 0, 1), "test").run(TrainJob.Start.RESUME_OR_FRESH));
    assertTrue(e.getMessage().contains("holds sentences of " + longest + " subwords"), e.getMessage());
    assertTrue(e.getMessage().contains("model.max_length (" + longest + ")"), e.getMessage());
    assertTrue(e.getMessage().contains("data.max_subwords at most " + (longest - 1)), e.getMessage());
    assertFalse(new CheckpointStore(run, SPARK.sc().hadoopConfiguration()).latest().isPresent(), "nothing trained");
    TrainJob.Result fits = new TrainJob(SPARK.sc(), run, MODEL.toBuilder().maxLength(longest + 1).build(),
        train(1, 2, 1), "test").run(TrainJob.Start.RESUME_OR_FRESH);
    assertEquals(2, fits.step());
  }

  /**
   * A kill between the publication of a checkpoint and the metrics' rewrite would leave a run whose newest
   * checkpoint covers steps that train.jsonl never got (a rerun resumes there and cannot rebuild them): while the
   * write of checkpoint 4 is held with its files complete and unpublished, train.jsonl already holds step 4.
   */
  @Test
  void theMetricsOfACheckpointAreWrittenBeforeItIsPublished() throws Exception {
    String run = copyOfPrepared("metrics-before-checkpoint");
    TrainJob job = new TrainJob(SPARK.sc(), run, MODEL, train(1, 4, 2, "train.checkpoint_every_steps=4"), "test",
        new CheckpointWritePause(List.of(4L), Duration.ofSeconds(15)));
    FileSystem fs = new org.apache.hadoop.fs.Path(run).getFileSystem(SPARK.sc().hadoopConfiguration());
    org.apache.hadoop.fs.Path checkpoints = new org.apache.hadoop.fs.Path(run, "checkpoints");
    CompletableFuture<TrainJob.Result> training = CompletableFuture.supplyAsync(() -> {
      try {
        return job.run(TrainJob.Start.RESUME_OR_FRESH);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    boolean held = false;
    while (!held && !training.isDone()) {
      held = fs.exists(checkpoints) && Arrays.stream(fs.listStatus(checkpoints))
          .anyMatch(status -> status.getPath().getName().startsWith(".step-00000004.tmp-"));
      Thread.sleep(100);
    }
    assertTrue(held, "the write of checkpoint 4 was never held");
    List<Long> steps = jsonl(run + "/metrics/train.jsonl").stream().map(n -> n.get("step").asLong()).toList();
    assertEquals(List.of(2L, 4L), steps);
    assertEquals(4, training.get().step());
  }

  @Test
  void resumeWithoutCheckpointIsAClearError() throws IOException {
    String run = copyOfPrepared("nothing-to-resume");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> job(run, train(1, 0, 2)).run(TrainJob.Start.RESUME));
    assertTrue(e.getMessage().contains("no intact checkpoint"), e.getMessage());
  }

  private static TrainJob job(String run, TrainConfig train) {
    return new TrainJob(SPARK.sc(), run, MODEL, train, "test");
  }

  /** A test training configuration: 2 workers, k = 2, inverse-sqrt with a short warm-up. */
  private static TrainConfig train(int epochs, long maxSteps, int keepLast, String... more) {
    return train(epochs, maxSteps, keepLast, 2, more);
  }

  /** These tests' training, set by config key: {@code more} keys are set after the ones named here. */
  private static TrainConfig train(int epochs, long maxSteps, int keepLast, int workers, String... more) {
    List<String> keys = new ArrayList<>(List.of("train.seed=7", "train.workers=" + workers,
        "train.averaging_frequency=2", "train.max_epochs=" + epochs, "train.max_steps=" + maxSteps, "train.lr=3e-3",
        "train.warmup_steps=10", "train.clip_norm=1.0", "train.keep_last=" + Math.max(keepLast, 1),
        "train.valid_bleu_sentences=20", "train.progress_seconds=1", "train.checkpoint_retry_seconds=0"));
    keys.addAll(List.of(more));
    return JobConfig.load(null, keys).bind("train", TrainConfig.class);
  }

  /** Flips bits in the middle of a file, rewriting it whole so HDFS's own checksums match the new bytes. */
  private static void corrupt(org.apache.hadoop.fs.Path file) throws IOException {
    FileSystem fs = file.getFileSystem(SPARK.sc().hadoopConfiguration());
    byte[] bytes;
    try (InputStream in = fs.open(file)) {
      bytes = in.readAllBytes();
    }
    bytes[bytes.length / 2] ^= 0x5A;
    try (OutputStream out = fs.create(file, true)) {
      out.write(bytes);
    }
  }

  private static String copyOfPrepared(String name) throws IOException {
    String run = HDFS.path("/runs/" + name);
    FileSystem fs = HDFS.hdfs().cluster().getFileSystem();
    FileUtil.copy(fs, new org.apache.hadoop.fs.Path(prepared, "data"), fs,
        new org.apache.hadoop.fs.Path(run, "data"), false, SPARK.sc().hadoopConfiguration());
    return run;
  }

  private static ComputationGraph latestModel(String run) throws IOException {
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    return latestModelAt(store, store.latest().orElseThrow());
  }

  private static List<JsonNode> jsonl(String uri) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(uri);
    List<JsonNode> nodes = new ArrayList<>();
    try (InputStream in = path.getFileSystem(SPARK.sc().hadoopConfiguration()).open(path)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          nodes.add(new ObjectMapper().readTree(line));
        }
      }
    }
    return nodes;
  }
}
