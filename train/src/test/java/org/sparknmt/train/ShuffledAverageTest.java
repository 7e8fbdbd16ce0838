package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

/**
 * The averaging reduction through Spark's shuffle ({@link SliceReducers}, {@link AverageSlice}) gives
 * the bits of its oracle, the driver's sum of the workers' whole states as rounds made it before,
 * ((w0 + w1) + w2) … / W, on the states of a tiny model's workers after a step each. The workers'
 * states are fitted once and fed to both: fitting is not bit-reproducible from one run to the next in
 * one JVM (libnd4j may split a reduction over another number of threads), which is a matter of the
 * fit, not of the average.
 */
class ShuffledAverageTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void theShuffledReductionGivesTheBitsOfOneSumOfWholeStates(int workers) {
    ComputationGraph graph = ParameterAveragingTest.network(SPARK);
    Broadcast<RoundStart> start = SPARK.sc().broadcast(new RoundStart(graph.getConfiguration(), RoundState.of(graph, true), 0));
    // S = W slices: three do not split the parameters evenly
    SliceReducers reducers = new SliceReducers(workers, workers);
    FitBatchesAsGiven fit = new FitBatchesAsGiven(start, true, 5, 8, 1, new WorkerTimings(SPARK.sc()), reducers, null);
    List<INDArray> parameters = new ArrayList<>();
    List<INDArray> updaters = new ArrayList<>();
    List<Tuple2<Long, FitBatchesAsGiven.WorkerSlice>> parts = new ArrayList<>();
    for (int worker = 0; worker < workers; worker++) {
      Batch batch = ParameterAveragingTest.BATCHES.get(worker % ParameterAveragingTest.BATCHES.size());
      FitBatchesAsGiven.Fitted fitted = fit.fit(start.value().network(), List.of(new Tuple2<>(worker, batch)));
      parameters.add(fitted.network().params().dup());
      updaters.add(fitted.network().getUpdater().getStateViewArray().dup());
      // the slices as the worker's task hands them to the shuffle
      fit.slices(fitted, worker).forEachRemaining(parts::add);
    }
    assertFalse(parameters.get(0).equals(parameters.get(1)), "the workers must differ");

    List<AverageSlice.Averaged> averaged = SPARK.sc().parallelizePairs(parts, workers)
        .repartitionAndSortWithinPartitions(reducers).mapPartitionsWithIndex(new AverageSlice(), false).collect();
    assertEquals(workers, averaged.size());
    INDArray meanParameters = Nd4j.zeros(DataType.FLOAT, parameters.get(0).shape());
    INDArray meanUpdater = Nd4j.zeros(DataType.FLOAT, updaters.get(0).shape());
    for (AverageSlice.Averaged slice : averaged) {
      slice.parameters().copyInto(meanParameters, reducers.start(meanParameters.length(), slice.slice()));
      slice.updater().copyInto(meanUpdater, reducers.start(meanUpdater.length(), slice.slice()));
    }

    assertArrayEquals(oldSum(parameters).data().asFloat(), meanParameters.data().asFloat());
    assertArrayEquals(oldSum(updaters).data().asFloat(), meanUpdater.data().asFloat());
  }

  /** The driver's average before the shuffle: the whole states summed in partition order, divided once. */
  private static INDArray oldSum(List<INDArray> states) {
    INDArray sum = null;
    for (INDArray state : states) {
      sum = sum == null ? state.dup() : sum.addi(state);
    }
    return sum.divi(states.size());
  }
}
