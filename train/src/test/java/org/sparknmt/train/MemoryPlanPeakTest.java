package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;

/**
 * {@code sparknmt memory}'s plans against the peak resident memory measured at the same sizes: each plan is
 * at least the peak (an undersized plan is an OutOfMemoryError) and at most 1.3x it. The peaks are GNU
 * time's maximum resident set size, in MiB, on the 2-core, 23.5 GiB host; the table and the runs'
 * settings are in docs/notes/2026-12-06-memory-plan.md.
 */
class MemoryPlanPeakTest {
  /** The most a plan may exceed what it plans for. */
  private static final double MAX_RATIO = 1.3;
  /** The Multi30k recipe's batches, as bench-production prepares them (conf/multi30k-en-de.conf). */
  private static final int RECIPE_TOKENS = 1500;

  /** Transformer-base, local[2], k = 5, 10 steps: bench-production 2026-12-06 04:33 and 05:23 (BENCHMARKS.md "Production sizes"). */
  private static final long[] BASE_PEAKS = {14_648, 14_940};
  /** The same with train.micro_batches = 3: bench-production 2026-12-06 04:36 and 05:31. */
  private static final long[] BASE_3_PARTS_PEAKS = {9_530, 9_302};
  /** The same with train.micro_batches = 6: bench-production 2026-12-06 04:41 and 05:27, and 05:05 under NMT (the note). */
  private static final long[] BASE_6_PARTS_PEAKS = {7_944, 8_223, 8_168};
  /** Transformer-big, one worker at 500-token batches, k = 5: BENCHMARKS.md "Production sizes", 2026-12-05 00:28. */
  private static final long BIG_PEAK = 13_929;
  /**
   * conf/quickstart.conf's training (train.micro_batches = 2) on Tatoeba, local[2], 30 steps, with the
   * planned heap (1,360 MiB): the note, 2026-12-06 05:18. With the former 2g floor it peaked at 2,790 MiB.
   */
  private static final long[] QUICKSTART_PEAKS = {2_081};
  /** TrainBench small, 64 x 24 tokens, one task without Spark: BENCHMARKS.md "Training throughput", and 2026-12-06 05:11. */
  private static final long[] SMALL_TASK_PEAKS = {1_712, 1_714};
  /** TrainBench tiny, the same batch: BENCHMARKS.md "Training throughput", and 2026-12-06 05:11. */
  private static final long[] TINY_TASK_PEAKS = {619, 592};

  @Test
  void transformerBaseInLocalModeIsPlannedWithinItsPeaks() {
    assertAll(
        within("base", localProcessMib("base", List.of("data.max_tokens=" + RECIPE_TOKENS)), BASE_PEAKS),
        within("base, 3 parts", localProcessMib("base", List.of("data.max_tokens=" + RECIPE_TOKENS, "train.micro_batches=3")),
            BASE_3_PARTS_PEAKS),
        within("base, 6 parts", localProcessMib("base", List.of("data.max_tokens=" + RECIPE_TOKENS, "train.micro_batches=6")),
            BASE_6_PARTS_PEAKS));
  }

  @Test
  void transformerBigWithOneWorkerIsPlannedWithinItsPeak() {
    assertAll(within("big", localProcessMib("big", List.of("data.max_tokens=500", "train.workers=1")), BIG_PEAK));
  }

  @Test
  void theQuickstartsTrainingIsPlannedWithinItsPeaks() {
    assertAll(within("quickstart", localProcessMib("quickstart", List.of()), QUICKSTART_PEAKS));
  }

  @Test
  void oneTaskWithoutSparkIsPlannedWithinTrainBenchsPeaks() {
    // TrainBench's small: d_model 256, 4 heads, d_ff 1024, 3+3 layers, vocabulary 8000, 64 pairs of 24 tokens
    TransformerConfig small = new TransformerConfig(256, 4, 1024, 3, 256, 0.1, 0.0, 0.1, true, false, false);
    // and its tiny: d_model 64, 4 heads, d_ff 128, 2+2 layers
    TransformerConfig tiny = new TransformerConfig(64, 4, 128, 2, 128, 0.1, 0.0, 0.1, true, false, false);
    assertAll(within("TrainBench small", MemoryPlan.of(small, 8000, 64 * 24).taskNativeMib(), SMALL_TASK_PEAKS),
        within("TrainBench tiny", MemoryPlan.of(tiny, 8000, 64 * 24).taskNativeMib(), TINY_TASK_PEAKS));
  }

  /** What `sparknmt memory` plans for local mode (heap + native) for conf/NAME.conf with these overrides, on two cores. */
  private static long localProcessMib(String name, List<String> overrides) {
    JobConfig config = JobConfig.load(Path.of("..", "conf", name + ".conf"), overrides);
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    PrepareConfig data = config.bind("data", PrepareConfig.class);
    TrainConfig train = config.bind("train", TrainConfig.class);
    MemoryPlan plan = MemoryPlan.of(model, data.vocabSize(), data.maxTokens(), train.microBatches(), data.maxSubwords() + 1);
    int workers = train.workerCount(2);
    long heap = plan.driverHeapMib(SliceReducers.count(plan.parameters(), plan.stateBytes(), workers, 1), workers, workers);
    return plan.localProcessMib(heap, workers);
  }

  private static Executable within(String what, long plannedMib, long... peaksMib) {
    long highest = LongStream.of(peaksMib).max().orElseThrow();
    long lowest = LongStream.of(peaksMib).min().orElseThrow();
    return () -> assertTrue(plannedMib >= highest && plannedMib <= MAX_RATIO * lowest,
        String.format("%s: planned %,d MiB, %.3f-%.3fx the measured peaks %s", what, plannedMib,
            (double) plannedMib / highest, (double) plannedMib / lowest, Arrays.toString(peaksMib)));
  }
}
