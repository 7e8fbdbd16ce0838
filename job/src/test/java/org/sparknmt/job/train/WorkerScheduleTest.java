package org.sparknmt.job.train;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.spark.impl.graph.SparkComputationGraph;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingMaster;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingResult;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingWorker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.EncodedPair;
import org.sparknmt.job.config.JobConfig;
import org.sparknmt.model.TransformerConfig;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

/**
 * A worker's updates follow the global learning-rate schedule: DL4J rebuilds the worker's network
 * from {@code conf.clone()}, which loses the iteration count, so the worker must set it to the
 * round's global step. During warm-up the rate grows linearly with the step, and Adam's first
 * update moves each parameter by about the rate, so a round starting at step 900 must move the
 * parameters several hundred times further than one starting at step 0.
 */
class WorkerScheduleTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[1]");

  @Test
  void workersContinueTheScheduleFromTheRoundsGlobalStep() {
    TransformerConfig model = new TransformerConfig(16, 2, 32, 1, 32, 0.0, 0.0, 0.1, true, false, false);
    TrainConfig train = JobConfig.load(null, List.of("train.lr_schedule=inverse-sqrt", "train.lr=1e-2",
        "train.warmup_steps=1000", "train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    ComputationGraph graph = new TrainJob(SPARK.sc(), "unused", model, train, "").create(300);
    INDArray initial = graph.params().dup();
    TokenBatchTrainingMaster master = new TokenBatchTrainingMaster(
        new ParameterAveragingTrainingMaster.Builder(1).batchSizePerWorker(1).averagingFrequency(1).saveUpdater(true),
        new WorkerTimings(SPARK.sc()), null);
    ParameterAveragingTrainingWorker worker = master.getWorkerInstance(new SparkComputationGraph(SPARK.sc(), graph, master));

    double fromStepZero = movement(worker, 0, initial);
    double fromStep900 = movement(worker, 900, initial);

    assertTrue(fromStep900 > 100 * fromStepZero,
        "a round at step 900 moved the parameters " + fromStep900 + ", one at step 0 " + fromStepZero);
  }

  /** L1 distance the parameters move in one one-batch round starting at {@code startStep}. */
  private static double movement(ParameterAveragingTrainingWorker worker, long startStep, INDArray initial) {
    Batch batch = new Batch(List.of(new EncodedPair(0, new int[] {300 - 1, 280, 290}, new int[] {270, 275}),
        new EncodedPair(1, new int[] {281, 282}, new int[] {271, 272, 273})));
    Iterator<ParameterAveragingTrainingResult> result = new FitBatchesAsGiven(worker, 7, startStep,
        new WorkerTimings(SPARK.sc())).call(List.of(new Tuple2<>(0, batch)).iterator());
    return result.next().getParameters().sub(initial).norm1Number().doubleValue();
  }
}
