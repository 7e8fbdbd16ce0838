package org.sparknmt.job.train;

import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingResult;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingWorker;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.datasets.Seeds;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.MultiDataSets;
import scala.Tuple2;

/**
 * One worker's part of a round, on an executor: start from the broadcast parameters at the round's
 * global step, fit each batch in slot order, return parameters, updater state and score for
 * averaging. Dropout is seeded per batch from the round's seed and the batch's slot, so a resumed
 * run draws the same masks.
 */
final class FitBatchesAsGiven implements FlatMapFunction<Iterator<Tuple2<Integer, Batch>>, ParameterAveragingTrainingResult> {
  private final ParameterAveragingTrainingWorker worker;
  private final long dropoutSeed;
  private final long startStep;
  private final WorkerTimings timings;

  /** @param startStep the global step before this round: the learning-rate schedule and Adam's bias correction continue from it */
  FitBatchesAsGiven(ParameterAveragingTrainingWorker worker, long dropoutSeed, long startStep, WorkerTimings timings) {
    this.worker = worker;
    this.dropoutSeed = dropoutSeed;
    this.startStep = startStep;
    this.timings = timings;
  }

  @Override
  public Iterator<ParameterAveragingTrainingResult> call(Iterator<Tuple2<Integer, Batch>> batches) {
    if (!batches.hasNext()) {
      return Collections.emptyIterator();
    }
    ComputationGraph net = worker.getInitialModelGraph();
    // DL4J rebuilds the worker's network from conf.clone(), which drops the iteration count
    net.getConfiguration().setIterationCount(Math.toIntExact(startStep));
    while (true) {
      Tuple2<Integer, Batch> slotted = batches.next();
      long dataStart = System.nanoTime();
      MultiDataSet batch = MultiDataSets.of(slotted._2());
      timings.addData(System.nanoTime() - dataStart);
      Nd4j.getRandom().setSeed(Seeds.mix(dropoutSeed, slotted._1()));
      boolean last = !batches.hasNext();
      long fitStart = System.nanoTime();
      ParameterAveragingTrainingResult result = worker.processMinibatch(batch, net, last);
      timings.addFit(System.nanoTime() - fitStart);
      timings.addBatch(targetTokens(slotted._2()));
      if (last) {
        return Collections.singletonList(result).iterator();
      }
    }
  }

  /** Tokens the loss covers: each target plus its EOS. */
  static long targetTokens(Batch batch) {
    return batch.pairs().stream().mapToLong(pair -> pair.target().length + 1L).sum();
  }
}
