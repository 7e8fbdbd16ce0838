package org.sparknmt.job.train;

import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.job.threads.LocalTaskThreads;

/**
 * The oracle of the shuffled reduction: an averaging round as it was made before it, every worker's
 * whole state collected into the driver and summed there in partition order, ((w0 + w1) + w2) … / W.
 */
final class CollectedAverage {
  private CollectedAverage() {}

  /** The mean parameters ([0]) and updater state ([1]) of one round fitted from {@code network}. */
  static INDArray[] round(JavaSparkContext sc, ComputationGraph network, JavaPairRDD<Integer, Batch> round,
      long dropoutSeed, long startStep) {
    Broadcast<RoundStart> start = sc.broadcast(new RoundStart(network.getConfiguration(), RoundState.of(network, true), 0));
    FitBatchesAsGiven fit = new FitBatchesAsGiven(start, true, dropoutSeed, startStep, new WorkerTimings(sc),
        new SliceReducers(1, round.getNumPartitions()));
    List<RoundState> results;
    try (LocalTaskThreads shared = LocalTaskThreads.share(round.context(), round.getNumPartitions())) {
      results = round.mapPartitions(batches -> {
        FitBatchesAsGiven.Fitted fitted = fit.fit(batches);
        return fitted == null ? Collections.<RoundState>emptyIterator()
            : Collections.singletonList(RoundState.of(fitted.network(), true)).iterator();
      }).collect();
    } finally {
      start.destroy();
    }
    INDArray parameters = null;
    INDArray updater = null;
    for (RoundState result : results) {
      parameters = parameters == null ? result.parameterArray() : parameters.addi(result.parameterArray());
      updater = updater == null ? result.updaterArray() : updater.addi(result.updaterArray());
    }
    return new INDArray[] {parameters.divi(results.size()), updater.divi(results.size())};
  }
}
