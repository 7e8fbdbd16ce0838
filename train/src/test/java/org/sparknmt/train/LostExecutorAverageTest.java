package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

/**
 * An executor killed once its worker has written its slices to the shuffle takes those slices with it
 * (no external shuffle service): Spark reruns that worker's fit on the other executor, and the round
 * ends at the same bits as an undisturbed one, since a worker's fit is deterministic.
 */
@Tag("slow")
class LostExecutorAverageTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local-cluster[2,1,1024]",
      // a fetch from the dead executor fails at once rather than after three 5 s retries
      Map.of("spark.shuffle.io.maxRetries", "0"));

  @Test
  void aRoundThatLosesAWorkersShuffleOutputEndsAtTheSameBits() {
    ComputationGraph undisturbed = ParameterAveragingTest.network(SPARK);
    ComputationGraph disturbed = undisturbed.clone();
    ParameterAveragingTest.averaging(SPARK, undisturbed, true).fitRound(round(), 5, 8, 1);

    KillAfterFit killer = new KillAfterFit(SPARK.sc().sc());
    SPARK.sc().sc().addSparkListener(killer);
    try {
      ParameterAveragingTest.averaging(SPARK, disturbed, true).fitRound(round(), 5, 8, 1);
    } finally {
      SPARK.sc().sc().removeSparkListener(killer);
    }

    assertNotNull(killer.killed, "no executor was killed");
    assertTrue(killer.fitsEnded > 2, "the lost worker's fit was not rerun: " + killer.fitsEnded + " fits");
    assertArrayEquals(undisturbed.params().data().asFloat(), disturbed.params().data().asFloat());
    assertArrayEquals(undisturbed.getUpdater().getStateViewArray().data().asFloat(),
        disturbed.getUpdater().getStateViewArray().data().asFloat());
  }

  /**
   * Worker 0 fits eight batches, worker 1 one: worker 1's executor is killed when its fit ends, while
   * worker 0 still fits, so its slices are lost before the reducers can read them.
   */
  private static JavaPairRDD<Integer, Batch> round() {
    List<Tuple2<Integer, Batch>> slotted = new ArrayList<>();
    for (int slot = 0; slot < 9; slot++) {
      slotted.add(new Tuple2<>(slot, ParameterAveragingTest.BATCHES.get(slot % 2)));
    }
    return SPARK.sc().parallelizePairs(slotted).repartitionAndSortWithinPartitions(new SlotPartitioner(2, 8));
  }

  /** Kills the executor of the first fit of worker 1 to end, from a thread of its own (not the listener bus's). */
  private static final class KillAfterFit extends SparkListener {
    private final SparkContext sc;
    private final Map<Integer, String> stageNames = new HashMap<>();
    volatile String killed;
    volatile int fitsEnded;

    KillAfterFit(SparkContext sc) {
      this.sc = sc;
    }

    @Override
    public synchronized void onStageSubmitted(SparkListenerStageSubmitted submitted) {
      stageNames.put(submitted.stageInfo().stageId(), submitted.stageInfo().name());
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
      String stage = stageNames.getOrDefault(end.stageId(), "");
      if (!stage.startsWith("mapPartitionsWithIndex") || !end.taskInfo().successful()) {
        return;
      }
      fitsEnded++;
      if (killed == null && end.taskInfo().index() == 1) {
        killed = end.taskInfo().executorId();
        new Thread(() -> sc.killExecutor(killed), "kill executor " + killed).start();
      }
    }
  }
}
