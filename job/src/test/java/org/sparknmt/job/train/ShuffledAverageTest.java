package org.sparknmt.job.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

/**
 * The averaging reduction through Spark's shuffle against its oracle, the driver's own sum of the
 * workers' whole states ({@link CollectedAverage}), in {@code local[1]}: one task at a time, so that a
 * worker computes the same bits in both (two concurrent tasks in one JVM share libnd4j's thread pool,
 * which may split a reduction otherwise from one run to the next; executors of a cluster are separate
 * JVMs).
 */
class ShuffledAverageTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[1]");

  /**
   * The reduction through the shuffle makes the same float operations in the same order as one sum of
   * the workers' whole states on the driver did: the same bits, with two and three workers (S = W
   * slices, three of which do not split the parameters evenly), and with a worker that has no batch in
   * a round short of W batches (the mean is then over the other two). And the driver receives one
   * averaged state, not one per worker.
   */
  @ParameterizedTest
  @CsvSource({"2, 2", "3, 3", "3, 2"})
  void theShuffledReductionGivesTheBitsOfOneSumOfWholeStates(int workers, int batches) {
    ComputationGraph graph = ParameterAveragingTest.network(SPARK);
    INDArray[] expected = CollectedAverage.round(SPARK.sc(), graph.clone(), round(workers, batches), 5, 8);
    ParameterAveraging averaging = ParameterAveragingTest.averaging(SPARK, graph, true);
    averaging.fitRound(round(workers, batches), 5, 8, 1);

    assertFalse(expected[0].equals(ParameterAveragingTest.network(SPARK).params()), "training must move the parameters");
    assertArrayEquals(expected[0].data().asFloat(), graph.params().data().asFloat());
    assertArrayEquals(expected[1].data().asFloat(), graph.getUpdater().getStateViewArray().data().asFloat());
    long state = Float.BYTES * (graph.params().length() + graph.getUpdater().getStateViewArray().length());
    // besides the averaged state, the tasks' statuses and accumulators: a few kB; a whole state per
    // worker would be twice or three times as much
    long received = averaging.driverBytesIn();
    assertTrue(received >= state && received < state + state / 4,
        "driver received " + received + " bytes for a state of " + state);
  }

  /** {@code batches} batches, one per worker, over {@code workers} partitions (the last ones empty when fewer). */
  private static JavaPairRDD<Integer, Batch> round(int workers, int batches) {
    List<Tuple2<Integer, Batch>> slotted = new ArrayList<>();
    for (int slot = 0; slot < batches; slot++) {
      slotted.add(new Tuple2<>(slot, ParameterAveragingTest.BATCHES.get(slot % ParameterAveragingTest.BATCHES.size())));
    }
    return SPARK.sc().parallelizePairs(slotted).repartitionAndSortWithinPartitions(new SlotPartitioner(workers, 1));
  }
}
