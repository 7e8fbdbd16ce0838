package org.sparknmt.job.train;

import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.job.checkpoint.CheckpointStore;
import org.sparknmt.job.threads.LocalTaskThreads;

/**
 * Parameter averaging (as DL4J's ParameterAveragingTrainingMaster does it), fed one planned round at a
 * time with the prepare job's token-budget batches exactly as they are: every worker starts from the
 * driver's network, fits its batches in order, and the driver's network becomes the mean of the
 * workers' parameters (and of Adam's moments, with {@code average_updater_state}), followed by the
 * outer step ({@link BlockMomentum}) unless the outer optimizer is plain averaging.
 *
 * <p>DL4J's own entry points re-batch (every path ends in {@code IteratorMultiDataSetIterator}, which
 * merges and splits MultiDataSets to a fixed number of examples), and its broadcast and results carry
 * INDArrays, whose Java serialization writes one element at a time; so the rounds are driven here,
 * with the state crossing as float arrays ({@link RoundState}).
 */
final class ParameterAveraging {
  private final JavaSparkContext sc;
  private final ComputationGraph network;
  private final boolean averageUpdater;
  private final WorkerTimings timings;
  /** null: plain averaging. */
  private final BlockMomentum outer;
  private double score = Double.NaN;
  /** The largest training-step workspace a worker has needed so far: the next round's workers reserve it. */
  private long stepWorkspaceBytes;

  ParameterAveraging(JavaSparkContext sc, ComputationGraph network, boolean averageUpdater, WorkerTimings timings,
      BlockMomentum outer) {
    this.sc = sc;
    this.network = network;
    this.averageUpdater = averageUpdater;
    this.timings = timings;
    this.outer = outer;
  }

  /**
   * One averaging round: every partition of {@code round} (slot-ordered batches of one worker) is fitted
   * by a worker that starts from the current network; the results are averaged, in partition order, into
   * the network, and the outer step applied. In local mode the concurrent workers share ND4J's threads
   * while they run ({@link LocalTaskThreads}).
   *
   * @param dropoutSeed base of the per-batch dropout seeds of this round
   * @param startStep the global step before this round
   * @param steps the updates each worker makes in this round (the global step advances by as many)
   */
  void fitRound(JavaPairRDD<Integer, Batch> round, long dropoutSeed, long startStep, int steps) {
    INDArray before = outer == null ? null : network.params().dup();
    Broadcast<RoundStart> start =
        sc.broadcast(new RoundStart(network.getConfiguration(), RoundState.of(network, averageUpdater), stepWorkspaceBytes));
    List<FitBatchesAsGiven.Result> results;
    try (LocalTaskThreads shared = LocalTaskThreads.share(round.context(), round.getNumPartitions())) {
      results = round.mapPartitions(new FitBatchesAsGiven(start, averageUpdater, dropoutSeed, startStep, timings))
          .collect();
    } finally {
      start.destroy();
    }
    if (results.isEmpty()) {
      throw new IllegalStateException("an averaging round had no batches");
    }
    average(results);
    network.getConfiguration().setIterationCount(Math.toIntExact(startStep + steps));
    if (outer != null) {
      outer.step(before, network.params());
    }
  }

  /** Sums in partition order, so that a rerun of the round gives the same bits. */
  private void average(List<FitBatchesAsGiven.Result> results) {
    INDArray parameters = null;
    INDArray updater = null;
    double scores = 0;
    for (FitBatchesAsGiven.Result result : results) {
      parameters = parameters == null ? result.state().parameterArray() : parameters.addi(result.state().parameterArray());
      if (averageUpdater) {
        updater = updater == null ? result.state().updaterArray() : updater.addi(result.state().updaterArray());
      }
      scores += result.score();
    }
    network.setParams(parameters.divi(results.size()));
    if (updater != null) {
      network.getUpdater().setStateViewArray(updater.divi(results.size()));
    }
    score = scores / results.size();
    stepWorkspaceBytes = Math.max(stepWorkspaceBytes,
        results.stream().mapToLong(FitBatchesAsGiven.Result::stepWorkspaceBytes).max().orElse(0));
  }

  /** Writes the outer optimizer's state into a checkpoint; null with plain averaging, or before its first round. */
  CheckpointStore.ModelWriter outerState() {
    return outer == null ? null : outer.stateWriter();
  }

  ComputationGraph network() {
    return network;
  }

  /** The training-step workspace the next round's workers reserve: the largest any worker has needed; 0 before the first round. */
  long stepWorkspaceBytes() {
    return stepWorkspaceBytes;
  }

  /** The workers' mean loss on their last batches of the last round; NaN before the first. */
  double score() {
    return score;
  }
}
