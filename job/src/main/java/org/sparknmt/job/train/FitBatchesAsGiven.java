package org.sparknmt.job.train;

import java.io.Serializable;
import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.datasets.Seeds;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.MultiDataSets;
import org.sparknmt.model.nn.PassWorkspace;
import scala.Tuple2;

/**
 * One worker's part of a round, on an executor: start from the broadcast state at the round's global
 * step, fit each batch in slot order, return parameters, updater state and score for averaging.
 * Dropout is seeded per batch from the round's seed and the batch's slot, so a resumed run draws the
 * same masks.
 */
final class FitBatchesAsGiven implements FlatMapFunction<Iterator<Tuple2<Integer, Batch>>, FitBatchesAsGiven.Result> {
  private final Broadcast<RoundStart> start;
  private final boolean returnUpdater;
  private final long dropoutSeed;
  private final long startStep;
  private final WorkerTimings timings;

  /**
   * A worker's network after its batches, its loss on the last one, and the bytes its training step's
   * workspace grew to.
   */
  record Result(RoundState state, double score, long stepWorkspaceBytes) implements Serializable {}

  /**
   * @param returnUpdater whether Adam's state comes back for averaging
   * @param startStep the global step before this round: the learning-rate schedule and Adam's bias correction continue from it
   */
  FitBatchesAsGiven(Broadcast<RoundStart> start, boolean returnUpdater, long dropoutSeed, long startStep,
      WorkerTimings timings) {
    this.start = start;
    this.returnUpdater = returnUpdater;
    this.dropoutSeed = dropoutSeed;
    this.startStep = startStep;
    this.timings = timings;
  }

  @Override
  public Iterator<Result> call(Iterator<Tuple2<Integer, Batch>> batches) {
    if (!batches.hasNext()) {
      return Collections.emptyIterator();
    }
    try {
      PassWorkspace.reserve(PassWorkspace.TRAINING_STEP, start.value().stepWorkspaceBytes());
      ComputationGraph net = start.value().network();
      // a cloned configuration starts its iteration count at 0
      net.getConfiguration().setIterationCount(Math.toIntExact(startStep));
      while (batches.hasNext()) {
        Tuple2<Integer, Batch> slotted = batches.next();
        long dataStart = System.nanoTime();
        var batch = MultiDataSets.of(slotted._2());
        timings.addData(System.nanoTime() - dataStart);
        Nd4j.getRandom().setSeed(Seeds.mix(dropoutSeed, slotted._1()));
        long fitStart = System.nanoTime();
        net.fit(batch);
        timings.addFit(System.nanoTime() - fitStart);
        timings.addBatch(targetTokens(slotted._2()));
      }
      Result result = new Result(RoundState.of(net, returnUpdater), net.score(), PassWorkspace.size(PassWorkspace.TRAINING_STEP));
      return Collections.singletonList(result).iterator();
    } finally {
      PassWorkspace.release();
    }
  }

  /** Tokens the loss covers: each target plus its EOS. */
  static long targetTokens(Batch batch) {
    return batch.pairs().stream().mapToLong(pair -> pair.target().length + 1L).sum();
  }
}
