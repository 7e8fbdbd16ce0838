package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;
import scala.Tuple2;

/**
 * A worker's updates follow the global learning-rate schedule: the worker's network is built from
 * {@code conf.clone()}, which loses the iteration count, so the worker must set it to the round's
 * global step. During warm-up the rate grows linearly with the step, and Adam's first
 * update moves each parameter by about the rate, so a round starting at step 900 must move the
 * parameters several hundred times further than one starting at step 0.
 */
class WorkerScheduleTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[1]");

  @Test
  void workersContinueTheScheduleFromTheRoundsGlobalStep() {
    TransformerConfig model = TinyRun.MODEL.toBuilder().dModel(16).dFf(32).dropout(0).build();
    TrainConfig train = JobConfig.load(null, List.of("train.lr_schedule=inverse-sqrt", "train.lr=1e-2",
        "train.warmup_steps=1000", "train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    ComputationGraph graph = new TrainJob(SPARK.sc(), "unused", model, train, "").create(300);
    INDArray initial = graph.params().dup();
    Broadcast<RoundStart> start =
        SPARK.sc().broadcast(new RoundStart(graph.getConfiguration(), RoundState.of(graph, true), 0));

    double fromStepZero = movement(start, 0, initial);
    double fromStep900 = movement(start, 900, initial);

    assertTrue(fromStep900 > 100 * fromStepZero,
        "a round at step 900 moved the parameters " + fromStep900 + ", one at step 0 " + fromStepZero);
  }

  /** L1 distance the parameters move in one one-batch round starting at {@code startStep}. */
  private static double movement(Broadcast<RoundStart> start, long startStep, INDArray initial) {
    Batch batch = new Batch(List.of(new EncodedPair(0, new int[] {300 - 1, 280, 290}, new int[] {270, 275}),
        new EncodedPair(1, new int[] {281, 282}, new int[] {271, 272, 273})));
    FitBatchesAsGiven.Fitted fitted = new FitBatchesAsGiven(start, true, 7, startStep, 1,
        new WorkerTimings(SPARK.sc()), new SliceReducers(1, 1), null).fit(start.value().network(), List.of(new Tuple2<>(0, batch)));
    return fitted.network().params().sub(initial).norm1Number().doubleValue();
  }
}
