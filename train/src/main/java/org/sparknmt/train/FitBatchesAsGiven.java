package org.sparknmt.train;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.TaskCompletionListener;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.base.Seeds;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.model.infer.PassWorkspace;
import scala.Tuple2;

/**
 * One worker's part of a round, on an executor: start from the broadcast state at the round's global
 * step, fit each batch in slot order, and hand the shuffle its parameters and updater state cut into
 * the round's slices ({@link SliceReducers}), each with the worker's score. Dropout is seeded per batch
 * from the round's seed and the batch's slot, so a resumed run draws the same masks, and a map task
 * that Spark reruns (its executor lost) writes the same bits.
 */
final class FitBatchesAsGiven
    implements Function2<Integer, Iterator<Tuple2<Integer, Batch>>, Iterator<Tuple2<Long, FitBatchesAsGiven.WorkerSlice>>> {
  private final Broadcast<RoundStart> start;
  private final boolean returnUpdater;
  private final long dropoutSeed;
  private final long startStep;
  private final int microBatches;
  private final WorkerTimings timings;
  private final SliceReducers reducers;
  private final Broadcast<ResidentWorkers> workers;

  /** A worker's network after its batches, its loss on the last one, and the bytes its training step's workspace grew to. */
  record Fitted(ComputationGraph network, double score, long stepWorkspaceBytes) {}

  /**
   * A worker's part of one slice (the shuffle key names the worker): its parameters (and updater state,
   * or null) in the slice's range, its score and its step workspace.
   */
  record WorkerSlice(double score, long stepWorkspaceBytes, FloatChunks parameters, FloatChunks updater)
      implements Serializable {}

  /**
   * @param returnUpdater whether Adam's state comes back for averaging
   * @param startStep the global step before this round: the learning-rate schedule and Adam's bias correction continue from it
   * @param microBatches train.micro_batches: the parts each batch's step is computed in ({@link MicroBatches}); 1 = whole
   * @param workers the training run's resident workers, once per executor
   */
  FitBatchesAsGiven(Broadcast<RoundStart> start, boolean returnUpdater, long dropoutSeed, long startStep,
      int microBatches, WorkerTimings timings, SliceReducers reducers, Broadcast<ResidentWorkers> workers) {
    this.start = start;
    this.returnUpdater = returnUpdater;
    this.dropoutSeed = dropoutSeed;
    this.startStep = startStep;
    this.microBatches = microBatches;
    this.timings = timings;
    this.reducers = reducers;
    this.workers = workers;
  }

  /**
   * Worker {@code worker}'s slices, made one at a time as the shuffle writes them; none for a worker
   * without batches. The batches are fitted on one of the executor's resident workers, whose network
   * goes back to them when the task ends, after the shuffle has read the last slice.
   */
  @Override
  public Iterator<Tuple2<Long, WorkerSlice>> call(Integer worker, Iterator<Tuple2<Integer, Batch>> batches) {
    List<Tuple2<Integer, Batch>> given = new ArrayList<>();
    batches.forEachRemaining(given::add);
    if (given.isEmpty()) {
      return Collections.emptyIterator();
    }
    Fitted fitted = workers.value().run(start.value(), net -> fit(net, given));
    TaskContext.get().addTaskCompletionListener(
        (TaskCompletionListener) task -> workers.value().giveBack(fitted.network()));
    return slices(fitted, worker);
  }

  /** Worker {@code worker}'s {@code fitted} state cut into the round's slices, each made when the iterator reaches it. */
  Iterator<Tuple2<Long, WorkerSlice>> slices(Fitted fitted, int worker) {
    INDArray parameters = fitted.network().params();
    INDArray updater = returnUpdater ? fitted.network().getUpdater().getStateViewArray() : null;
    return IntStream.range(0, reducers.slices()).mapToObj(slice -> new Tuple2<>(reducers.key(slice, worker),
        new WorkerSlice(fitted.score(), fitted.stepWorkspaceBytes(), range(parameters, slice),
            updater == null ? null : range(updater, slice)))).iterator();
  }

  private FloatChunks range(INDArray flat, int slice) {
    return FloatChunks.of(flat, reducers.start(flat.length(), slice), reducers.start(flat.length(), slice + 1),
        FloatChunks.MAX_CHUNK_FLOATS);
  }

  /**
   * Fits {@code batches} in order with {@code net}, which holds the broadcast state, on this thread:
   * the learning-rate schedule and Adam's bias correction continue from the round's global step. With
   * micro-batches each batch's step is computed in parts ({@link MicroBatches}); otherwise by
   * {@code net.fit}, DL4J's own step.
   */
  Fitted fit(ComputationGraph net, List<Tuple2<Integer, Batch>> batches) {
    net.getConfiguration().setIterationCount(Math.toIntExact(startStep));
    double score = Double.NaN;
    try (MicroBatches inParts = microBatches > 1 ? new MicroBatches(net) : null) {
      for (Tuple2<Integer, Batch> slotted : batches) {
        long seed = Seeds.mix(dropoutSeed, slotted._1());
        long dataStart = System.nanoTime();
        if (inParts != null) {
          List<MicroBatches.Part> parts = MicroBatches.parts(slotted._2(), microBatches);
          timings.addData(System.nanoTime() - dataStart);
          long fitStart = System.nanoTime();
          score = inParts.fit(parts, seed);
          timings.addFit(System.nanoTime() - fitStart);
        } else {
          var batch = MultiDataSets.of(slotted._2());
          timings.addData(System.nanoTime() - dataStart);
          Nd4j.getRandom().setSeed(seed);
          long fitStart = System.nanoTime();
          net.fit(batch);
          timings.addFit(System.nanoTime() - fitStart);
          score = net.score();
        }
        timings.addBatch(targetTokens(slotted._2()));
      }
    }
    return new Fitted(net, score, PassWorkspace.size(PassWorkspace.TRAINING_STEP));
  }

  /** Tokens the loss covers: each target plus its EOS. */
  static long targetTokens(Batch batch) {
    return batch.pairs().stream().mapToLong(pair -> pair.target().length + 1L).sum();
  }
}
