package org.sparknmt.job.train;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.deeplearning4j.spark.impl.graph.SparkComputationGraph;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingMaster;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingResult;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.datasets.shard.Batch;

/**
 * DL4J's parameter averaging, fed one planned round at a time with the prepare job's token-budget
 * batches exactly as they are.
 *
 * <p>DL4J's own entry points re-batch: every path ends in {@code IteratorMultiDataSetIterator},
 * which merges and splits MultiDataSets to {@code batchSizePerWorker} examples, so batches packed
 * by a token budget (a varying number of sentences) would be cut up and batches of different
 * lengths merged. This master keeps DL4J's broadcast of parameters and updater state, its
 * {@code ParameterAveragingTrainingWorker} (hooks, listeners, final result) and its tree
 * aggregation and averaging ({@code processResults}), and replaces only the data path: the trainer
 * hands it one round, one partition per worker, each partition fitted in order as given. The
 * average is then the pseudo-gradient of an outer step ({@link BlockMomentum}) unless the outer
 * optimizer is plain averaging.
 */
public final class TokenBatchTrainingMaster extends ParameterAveragingTrainingMaster {
  private final transient WorkerTimings timings;
  /** null: plain averaging. */
  private final transient BlockMomentum outer;

  public TokenBatchTrainingMaster(Builder builder, WorkerTimings timings, BlockMomentum outer) {
    super(builder);
    this.timings = timings;
    this.outer = outer;
  }

  /**
   * One averaging round: every partition of {@code round} (slot-ordered batches of one worker) is
   * fitted by a worker that starts from the current parameters; the results are averaged into
   * {@code graph}, and the outer step applied. In local mode the concurrent workers share ND4J's threads while they run
   * ({@link LocalTaskThreads}).
   *
   * @param dropoutSeed base of the per-batch dropout seeds of this round
   * @param startStep the global step before this round
   */
  public void fitRound(SparkComputationGraph graph, JavaPairRDD<Integer, Batch> round, long dropoutSeed,
      long startStep, int roundNumber, int roundsInEpoch) {
    INDArray before = outer == null ? null : graph.getNetwork().params().dup();
    JavaRDD<ParameterAveragingTrainingResult> results =
        round.mapPartitions(new FitBatchesAsGiven(getWorkerInstance(graph), dropoutSeed, startStep, timings));
    try (LocalTaskThreads shared = LocalTaskThreads.share(round.context(), round.getNumPartitions())) {
      processResults(null, graph, results, roundNumber, roundsInEpoch);
    }
    if (outer != null) {
      outer.step(before, graph.getNetwork().params());
    }
  }
}
