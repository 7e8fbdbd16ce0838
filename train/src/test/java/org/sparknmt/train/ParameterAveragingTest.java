package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.base.Seeds;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.common.threads.LocalTaskThreads;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;
import scala.Tuple2;

/**
 * A round through Spark (two workers in {@code local[2]}, their results averaged through the shuffle)
 * leaves the driver's network at the mean of what the two workers compute on their own from the same
 * start: the parameters, Adam's moments with {@code average_updater_state}, and the score.
 */
class ParameterAveragingTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");
  private static final TransformerConfig MODEL = TinyRun.MODEL.toBuilder().dModel(16).dFf(32).build();
  static final List<Batch> BATCHES = List.of(
      new Batch(List.of(new EncodedPair(0, new int[] {299, 280, 290}, new int[] {270, 275}),
          new EncodedPair(1, new int[] {281, 282}, new int[] {271, 272, 273}))),
      new Batch(List.of(new EncodedPair(2, new int[] {283, 284, 285, 286}, new int[] {276, 277}))));

  @Test
  void theRoundEndsAtTheMeanOfItsWorkers() {
    ComputationGraph graph = network();
    Broadcast<RoundStart> start = SPARK.sc().broadcast(new RoundStart(graph.getConfiguration(), RoundState.of(graph, true), 0));
    FitBatchesAsGiven fit =
        new FitBatchesAsGiven(start, true, 11, 40, 1, new WorkerTimings(SPARK.sc()), new SliceReducers(1, 2), null);
    FitBatchesAsGiven.Fitted first;
    FitBatchesAsGiven.Fitted second;
    // with the threads each of the round's two tasks gets, so that the workers' arithmetic is the same
    try (LocalTaskThreads shared = LocalTaskThreads.share(SPARK.sc().sc(), 2)) {
      first = fit.fit(start.value().network(), List.of(new Tuple2<>(0, BATCHES.get(0))));
      second = fit.fit(start.value().network(), List.of(new Tuple2<>(1, BATCHES.get(1))));
    }

    ParameterAveraging averaging = averaging(graph, true);
    JavaPairRDD<Integer, Batch> round = SPARK.sc()
        .parallelizePairs(List.of(new Tuple2<>(0, BATCHES.get(0)), new Tuple2<>(1, BATCHES.get(1))))
        .repartitionAndSortWithinPartitions(new SlotPartitioner(2, 1));
    averaging.fitRound(round, 11, 40, 1);

    INDArray expectedParameters = first.network().params().add(second.network().params()).divi(2);
    INDArray expectedUpdater = first.network().getUpdater().getStateViewArray()
        .add(second.network().getUpdater().getStateViewArray()).divi(2);
    assertFalse(first.network().params().equals(second.network().params()), "the workers must differ");
    // within a few float ulps: two tasks at once share libnd4j's thread pool, which may split a
    // reduction otherwise than one task alone; a wrong average is off by about a step (~1e-4), and
    // wrong moments by about their own size, which spans orders of magnitude (hence relative)
    assertArrayEquals(expectedParameters.data().asFloat(), graph.params().data().asFloat(), 1e-6f);
    assertWithinUlps(expectedUpdater.data().asFloat(), graph.getUpdater().getStateViewArray().data().asFloat(), 8);
    assertEquals((first.score() + second.score()) / 2, averaging.score(), 1e-6);
    assertEquals(41, graph.getConfiguration().getIterationCount());
    // the driver received one averaged state and a few kB of task statuses, not a state per worker
    long state = Float.BYTES * (graph.params().length() + graph.getUpdater().getStateViewArray().length());
    assertTrue(averaging.driverBytesIn() >= state && averaging.driverBytesIn() < state + state / 4,
        "driver received " + averaging.driverBytesIn() + " bytes for a state of " + state);
    // the next round's workers reserve the largest step workspace this round's needed
    assertEquals(Math.max(first.stepWorkspaceBytes(), second.stepWorkspaceBytes()), averaging.stepWorkspaceBytes());
    assertTrue(averaging.stepWorkspaceBytes() > 0);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aKeptNetworkResetToARoundsStartFitsAsANewOneWould(boolean withUpdater) {
    ComputationGraph graph = network();
    FitBatchesAsGiven fit =
        new FitBatchesAsGiven(null, withUpdater, 11, 40, 1, new WorkerTimings(SPARK.sc()), new SliceReducers(1, 1), null);
    // a network after an earlier round's worker: moved parameters and moments, its own iteration count
    ComputationGraph kept = fit.fit(
        new RoundStart(graph.getConfiguration(), RoundState.of(graph, withUpdater), 0).network(),
        List.of(new Tuple2<>(0, BATCHES.get(0)))).network();
    // the next round starts elsewhere: from the driver's network after some training of its own
    graph.fit(MultiDataSets.of(BATCHES.get(1)));
    graph.getConfiguration().setEpochCount(3);
    RoundStart next = new RoundStart(graph.getConfiguration(), RoundState.of(graph, withUpdater), 0);

    next.reset(kept);
    assertEquals(3, kept.getConfiguration().getEpochCount());
    FitBatchesAsGiven.Fitted reset = fit.fit(kept, List.of(new Tuple2<>(1, BATCHES.get(0))));
    FitBatchesAsGiven.Fitted fresh = fit.fit(next.network(), List.of(new Tuple2<>(1, BATCHES.get(0))));

    // within a few ulps (see laterRoundsReuseTheWorkersOfEarlierOnesAndComputeAsNewOnes); moments or
    // parameters left from the earlier round would be off by a step's update
    assertWithinUlps(fresh.network().params().data().asFloat(), reset.network().params().data().asFloat(), 8);
    assertWithinUlps(fresh.network().getUpdater().getStateViewArray().data().asFloat(),
        reset.network().getUpdater().getStateViewArray().data().asFloat(), 8);
    assertEquals(fresh.score(), reset.score(), 1e-6);
  }

  @Test
  void laterRoundsReuseTheWorkersOfEarlierOnesAndComputeAsNewOnes() {
    ComputationGraph graph = network();
    JavaPairRDD<Integer, Batch> round = SPARK.sc()
        .parallelizePairs(List.of(new Tuple2<>(0, BATCHES.get(0)), new Tuple2<>(1, BATCHES.get(1))))
        .repartitionAndSortWithinPartitions(new SlotPartitioner(2, 1));
    ComputationGraph fresh;
    ComputationGraph kept;
    try (ParameterAveraging averaging = averaging(graph, true)) {
      averaging.fitRound(round, 11, 0, 1);
      fresh = graph.clone();
      averaging.fitRound(round, 12, 1, 1);
      kept = graph.clone();
      // local mode: the tasks' resident workers are the driver's; the second round built no network
      assertEquals(2, averaging.residentWorkers().networksBuilt());
      // before the driver's own passes it frees them: the next round builds its networks anew
      averaging.releaseLocalWorkers();
      averaging.fitRound(round, 13, 2, 1);
      assertEquals(4, averaging.residentWorkers().networksBuilt());
    }
    try (ParameterAveraging averaging = averaging(fresh, true)) {
      averaging.fitRound(round, 12, 1, 1);
      assertEquals(2, averaging.residentWorkers().networksBuilt());
    }

    assertFalse(Arrays.equals(network().params().data().asFloat(), kept.params().data().asFloat()),
        "training must move the parameters");
    // Within a few ulps, not the same bits: a few elements of Adam's state come out one ulp apart after
    // two rounds in a row and after one round and a new averaging from its state, with new workers in
    // every round as well (before resident workers); a network not reset to the round's state is off
    // by a round's update
    assertWithinUlps(fresh.params().data().asFloat(), kept.params().data().asFloat(), 8);
    assertWithinUlps(fresh.getUpdater().getStateViewArray().data().asFloat(),
        kept.getUpdater().getStateViewArray().data().asFloat(), 8);
  }

  @Test
  void withoutUpdaterAveragingAdamRestartsEachRound() {
    ComputationGraph graph = network();
    INDArray moments = graph.getUpdater().getStateViewArray().dup();
    ParameterAveraging averaging = averaging(graph, false);
    averaging.fitRound(SPARK.sc().parallelizePairs(List.of(new Tuple2<>(0, BATCHES.get(0))), 1), 3, 0, 1);

    assertArrayEquals(moments.data().asFloat(), graph.getUpdater().getStateViewArray().data().asFloat());
  }

  @Test
  void oneWorkersRoundsAreItsBatchesFittedInOrder() {
    ComputationGraph averaged = network();
    ComputationGraph sequential = averaged.clone();
    ParameterAveraging averaging = averaging(averaged, true);
    List<Batch> epoch = List.of(BATCHES.get(0), BATCHES.get(1), BATCHES.get(1), BATCHES.get(0));
    for (int round = 0; round < 2; round++) {
      List<Tuple2<Integer, Batch>> slotted = List.of(
          new Tuple2<>(0, epoch.get(2 * round)), new Tuple2<>(1, epoch.get(2 * round + 1)));
      averaging.fitRound(SPARK.sc().parallelizePairs(slotted, 1), 20 + round, 2L * round, 2);
      for (Tuple2<Integer, Batch> batch : slotted) {
        // the dropout masks a worker draws for this slot of this round
        Nd4j.getRandom().setSeed(Seeds.mix(20 + round, batch._1()));
        sequential.fit(MultiDataSets.of(batch._2()));
      }
    }

    // one worker averages with nobody: its rounds must be plain training, Adam's moments, bias
    // correction and learning-rate schedule carried across rounds
    assertEquals(4, averaged.getConfiguration().getIterationCount());
    assertEquals(4, sequential.getConfiguration().getIterationCount());
    assertFalse(averaged.params().equals(network().params()), "training must move the parameters");
    // within float rounding (the task and the driver's thread may split libnd4j's reductions differently);
    // moments restarted or not carried over would differ by about their own size
    assertArrayEquals(sequential.params().data().asFloat(), averaged.params().data().asFloat(), 1e-6f);
    assertArrayEquals(sequential.getUpdater().getStateViewArray().data().asFloat(),
        averaged.getUpdater().getStateViewArray().data().asFloat(), 1e-6f);
  }

  static ParameterAveraging averaging(org.sparknmt.testkit.SparkCluster spark, ComputationGraph graph,
      boolean averageUpdater) {
    return new ParameterAveraging(spark.sc(), graph, averageUpdater, 1, new WorkerTimings(spark.sc()), null,
        DriverBytesIn.register(spark.sc().sc()));
  }

  private static ParameterAveraging averaging(ComputationGraph graph, boolean averageUpdater) {
    return averaging(SPARK, graph, averageUpdater);
  }

  private static void assertWithinUlps(float[] expected, float[] actual, int ulps) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      float tolerance = ulps * Math.ulp(Math.max(Math.abs(expected[i]), Math.abs(actual[i])));
      assertEquals(expected[i], actual[i], tolerance, "index " + i);
    }
  }

  static ComputationGraph network(org.sparknmt.testkit.SparkCluster spark) {
    TrainConfig train = JobConfig.load(null, List.of("train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    return new TrainJob(spark.sc(), "unused", MODEL, train, "").create(300);
  }

  private static ComputationGraph network() {
    TrainConfig train = JobConfig.load(null, List.of("train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    return new TrainJob(SPARK.sc(), "unused", MODEL, train, "").create(300);
  }
}
