package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.nativeblas.NativeOpsHolder;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.testkit.TinyRun;

/**
 * A step computed in micro-batches is the step of the whole batch: the same parameters, Adam state,
 * iteration count and score as {@code ComputationGraph.fit}, up to float summation order.
 */
class MicroBatchesTest {
  /** conf/tiny.conf's sizes, without dropout so that a step is a function of the batch alone. */
  private static final TransformerConfig MODEL =
      new TransformerConfig(64, 4, 128, 2, 128, 0.0, 0.0, 0.1, true, false, false);
  private static final int VOCAB = 500;
  private static List<Batch> batches;
  private static int threads;

  /**
   * libnd4j on one thread, as each worker of an exact resume runs (OMP_NUM_THREADS=1): with several, a rerun
   * of the same whole step here sometimes moved an embedding parameter by a whole step (2e-4), as if a
   * parallel scatter of the embedding's gradient had lost a term, which no tolerance for summation order
   * would cover. On one thread the same step is the same bits.
   */
  @BeforeAll
  static void oneThread() {
    threads = Nd4j.getEnvironment().maxMasterThreads();
    Nd4j.getEnvironment().setMaxMasterThreads(1);
    NativeOpsHolder.getInstance().getDeviceNativeOps().setOmpNumThreads(1);
  }

  @AfterAll
  static void restoreThreads() {
    Nd4j.getEnvironment().setMaxMasterThreads(threads);
    NativeOpsHolder.getInstance().getDeviceNativeOps().setOmpNumThreads(threads);
  }

  /**
   * Two batches of 24 sample pairs each, the sentences' words hashed into the vocabulary: real lengths
   * (4 to 20-odd words, unsorted, so padding varies within a batch) without a prepare job.
   */
  @BeforeAll
  static void batches() throws IOException {
    List<String> en = TinyRun.sample("train.en.gz", 48);
    List<String> de = TinyRun.sample("train.de.gz", 48);
    batches = new ArrayList<>();
    for (int b = 0; b < 2; b++) {
      List<EncodedPair> pairs = new ArrayList<>();
      for (int i = 24 * b; i < 24 * (b + 1); i++) {
        pairs.add(new EncodedPair(i, ids(en.get(i)), ids(de.get(i))));
      }
      batches.add(new Batch(pairs));
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, 0.5})
  void aStepInPartsIsTheStepOfTheWholeBatch(double clipNorm) {
    ComputationGraph warm = network(clipNorm);
    warm.getConfiguration().setIterationCount(40);
    // two whole steps first: Adam's moments and bias correction are then those of a run under way
    warm.fit(MultiDataSets.of(batches.get(1)));
    warm.fit(MultiDataSets.of(batches.get(0)));

    // the sample batch in 2 and 3 parts of near-equal tokens, and its shortest, middle and longest pair, one a part
    List<EncodedPair> byLength = new ArrayList<>(batches.get(1).pairs());
    byLength.sort(Comparator.comparingInt(p -> p.target().length));
    Batch uneven = new Batch(List.of(byLength.get(0), byLength.get(12), byLength.get(23)));
    LrScheduleAdapter schedule = LrScheduleAdapter.of(train(clipNorm), MODEL.dModel());
    assertStepInParts(warm, schedule, uneven, 3);
    assertStepInParts(warm, schedule, batches.get(1), 2);
    assertStepInParts(warm, schedule, batches.get(1), 3);
  }

  private static void assertStepInParts(ComputationGraph warm, LrScheduleAdapter schedule, Batch batch, int n) {
    ComputationGraph whole = copy(warm);
    whole.fit(MultiDataSets.of(batch));
    double wholeScore = whole.score();
    ComputationGraph parts = copy(warm);
    double score;
    try (MicroBatches inParts = new MicroBatches(parts)) {
      score = inParts.fit(MicroBatches.parts(batch, n), 5);
    }
    String what = n + " parts of " + batch.pairs().size() + " pairs";
    assertEquals(warm.getIterationCount() + 1, parts.getConfiguration().getIterationCount(), "one update, " + what);
    // Within float summation order: the parts' gradients are scaled by their token shares and then
    // summed, where the whole batch sums every token's term at once, so an element differs in its last
    // bits (4.5e-8 at most, of gradients up to 0.17 here). Adam turns a gradient error δ into a step
    // error of alpha_t (1 − β1) δ / (sqrt(v) + ε), which is tiny where v is of the gradient's size and
    // up to a whole step where the gradient is near 0 (the attention key biases' is 0: softmax does not
    // change when every score gains the same q·b_k, so both ways compute rounding noise of 1e-10). Each
    // parameter may differ by that for δ = 1e-7, plus 5e-7 (a few ulps); parts weighted 1/N instead of
    // by their tokens move them 2e-5 away. Adam's moments are smooth in the gradient: m takes (1 − β1)
    // of it, so an element differs by up to 1e-8 where m is small; 1e-8 absolute and 1e-4 relative.
    // Adam's state view: m of every parameter, then v
    assertEquals(2 * whole.params().length(), whole.getUpdater().getStateViewArray().length());
    float[] v = Arrays.copyOfRange(whole.getUpdater().getStateViewArray().data().asFloat(),
        Math.toIntExact(whole.params().length()), Math.toIntExact(2 * whole.params().length()));
    int t = warm.getIterationCount() + 1;
    double alpha = schedule.valueAt(warm.getIterationCount(), 0) * Math.sqrt(1 - Math.pow(0.98, t)) / (1 - Math.pow(0.9, t));
    float[] tolerance = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      tolerance[i] = (float) (5e-7 + alpha * 0.1 * 1e-7 / (Math.sqrt(v[i]) + 1e-9));
    }
    float[] expected = whole.params().data().asFloat();
    float[] actual = parts.params().data().asFloat();
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], tolerance[i], "parameter " + i + ", " + what);
    }
    assertWithin(whole.getUpdater().getStateViewArray().data().asFloat(),
        parts.getUpdater().getStateViewArray().data().asFloat(), 1e-8f, 1e-4f, "Adam state, " + what);
    assertEquals(wholeScore, score, 1e-6 * wholeScore, "the whole batch's score, " + what);
  }

  /** Clipping must act on the summed gradient: with a small norm every step is clipped, and the test above tells. */
  @Test
  void theClipNormOfTheTestAboveClips() {
    ComputationGraph clipped = network(0.5);
    ComputationGraph free = network(0);
    clipped.fit(MultiDataSets.of(batches.get(0)));
    free.fit(MultiDataSets.of(batches.get(0)));
    assertFalse(Arrays.equals(clipped.params().data().asFloat(), free.params().data().asFloat()),
        "clip_norm 0.5 must change the step, or the test above does not test clipping");
  }

  /**
   * With dropout each part draws its masks from the batch's seed and its index: the same step again is the
   * same bits (on one thread), and another seed draws other masks.
   */
  @Test
  void dropoutMasksFollowTheSeed() {
    TransformerConfig dropout = MODEL.toBuilder().dropout(0.1).attentionDropout(0.1).build();
    // new networks, as a worker's first round gets (from the same seed: the same parameters)
    ComputationGraph first = network(dropout, 0);
    ComputationGraph again = network(dropout, 0);
    ComputationGraph otherSeed = network(dropout, 0);
    double firstScore;
    double otherScore;
    try (MicroBatches a = new MicroBatches(first); MicroBatches b = new MicroBatches(again);
        MicroBatches c = new MicroBatches(otherSeed)) {
      firstScore = a.fit(MicroBatches.parts(batches.get(0), 3), 9);
      assertEquals(firstScore, b.fit(MicroBatches.parts(batches.get(0), 3), 9));
      otherScore = c.fit(MicroBatches.parts(batches.get(0), 3), 10);
    }
    assertArrayEquals(first.params().data().asFloat(), again.params().data().asFloat());
    assertArrayEquals(first.getUpdater().getStateViewArray().data().asFloat(),
        again.getUpdater().getStateViewArray().data().asFloat());
    assertTrue(Math.abs(firstScore - otherScore) > 1e-4 * firstScore, "another seed must draw other masks: "
        + firstScore + " and " + otherScore);
  }

  @Test
  void aBatchIsCutIntoContiguousPartsOfAboutEqualTargetTokens() {
    Batch batch = batches.get(0);
    long total = FitBatchesAsGiven.targetTokens(batch);
    for (int n = 1; n <= 5; n++) {
      List<Batch> parts = MicroBatches.split(batch, n);
      assertEquals(n, parts.size());
      List<EncodedPair> joined = new ArrayList<>();
      long longest = 0;
      for (Batch part : parts) {
        joined.addAll(part.pairs());
        long tokens = FitBatchesAsGiven.targetTokens(part);
        // each part within one sentence of its share
        assertTrue(Math.abs(tokens - (double) total / n) <= maxTarget(batch), n + " parts: " + tokens + " of " + total);
        longest = Math.max(longest, tokens);
      }
      assertEquals(batch.pairs(), joined, "the parts are the batch's pairs, in order");
      List<MicroBatches.Part> weighted = MicroBatches.parts(batch, n);
      assertEquals(1.0, weighted.stream().mapToDouble(MicroBatches.Part::weight).sum(), 1e-12);
      assertEquals((double) FitBatchesAsGiven.targetTokens(parts.get(0)) / total, weighted.get(0).weight());
    }
  }

  @Test
  void aBatchOfFewerPairsThanPartsIsCutIntoOnePairEach() {
    Batch two = new Batch(batches.get(0).pairs().subList(0, 2));
    List<Batch> parts = MicroBatches.split(two, 4);
    assertEquals(2, parts.size());
    assertEquals(List.of(two.pairs().get(0)), parts.get(0).pairs());
    assertEquals(List.of(two.pairs().get(1)), parts.get(1).pairs());
    // all tokens in the first pairs: every later part still gets one
    List<EncodedPair> skewed = List.of(new EncodedPair(0, new int[] {5}, new int[40]),
        new EncodedPair(1, new int[] {5}, new int[] {6}), new EncodedPair(2, new int[] {5}, new int[] {6}));
    assertEquals(List.of(1, 1, 1), MicroBatches.split(new Batch(skewed), 3).stream().map(p -> p.pairs().size()).toList());
  }

  /** A clone at the same iteration: clone() drops the count, which drives the schedule and Adam's bias correction. */
  private static ComputationGraph copy(ComputationGraph net) {
    ComputationGraph copy = net.clone();
    copy.getConfiguration().setIterationCount(net.getIterationCount());
    return copy;
  }

  private static int maxTarget(Batch batch) {
    return batch.pairs().stream().mapToInt(p -> p.target().length + 1).max().orElseThrow();
  }

  private static ComputationGraph network(double clipNorm) {
    return network(MODEL, clipNorm);
  }

  /** A network as the train job builds it (the schedule, clipping), with a short warm-up so steps are large. */
  private static ComputationGraph network(TransformerConfig model, double clipNorm) {
    return new TrainJob(null, "unused", model, train(clipNorm), "").create(VOCAB);
  }

  private static TrainConfig train(double clipNorm) {
    return JobConfig.load(null, List.of("train.valid_bleu_sentences=0", "train.warmup_steps=50", "train.lr=3e-3",
        "train.clip_norm=" + clipNorm)).bind("train", TrainConfig.class);
  }

  private static int[] ids(String line) {
    return Arrays.stream(line.split(" ")).mapToInt(word -> 4 + Math.floorMod(word.hashCode(), VOCAB - 4)).toArray();
  }

  /** |expected − actual| ≤ absolute + relative · max(|expected|, |actual|), element by element. */
  private static void assertWithin(float[] expected, float[] actual, float absolute, float relative, String what) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      double scale = Math.max(Math.abs(expected[i]), Math.abs(actual[i]));
      double off = Math.abs(expected[i] - actual[i]);
      assertTrue(off <= absolute + relative * scale,
          what + ": index " + i + " is " + actual[i] + ", expected " + expected[i]);
    }
  }
}
