package org.sparknmt.train;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.threads.LocalTaskThreads;

/**
 * Parameter averaging (as DL4J's ParameterAveragingTrainingMaster does it), fed one planned round at a
 * time with the prepare job's token-budget batches exactly as they are: every worker starts from the
 * driver's network, fits its batches in order, and the driver's network becomes the mean of the
 * workers' parameters (and of Adam's moments, with {@code average_updater_state}), followed by the
 * outer step ({@link BlockMomentum}) unless the outer optimizer is plain averaging. The mean is taken
 * by reducers on the executors, slice by slice, so the driver receives one state's bytes whatever the
 * number of workers. Each executor keeps its workers' threads and networks from round to round
 * ({@link ResidentWorkers}).
 *
 * <p>DL4J's own entry points re-batch (every path ends in {@code IteratorMultiDataSetIterator}, which
 * merges and splits MultiDataSets to a fixed number of examples), and its broadcast and results carry
 * INDArrays, whose Java serialization writes one element at a time; so the rounds are driven here,
 * with the state crossing as float arrays ({@link RoundState}, {@link FloatChunks}).
 */
final class ParameterAveraging implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ParameterAveraging.class);
  /** Spark's listener bus is behind the job by milliseconds; far longer means it dropped events. */
  private static final long LISTENER_WAIT_SECONDS = 30;

  private final JavaSparkContext sc;
  private final ComputationGraph network;
  private final boolean averageUpdater;
  /** train.micro_batches: the parts each batch's step is computed in. */
  private final int microBatches;
  private final WorkerTimings timings;
  /** null: plain averaging. */
  private final BlockMomentum outer;
  private double score = Double.NaN;
  /** The largest training-step workspace a worker has needed so far: the next round's workers reserve it. */
  private long stepWorkspaceBytes;
  private final DriverBytesIn received;
  private long driverBytesIn = -1;
  /** What the executors keep of their workers between rounds, for as long as this training runs. */
  private final Broadcast<ResidentWorkers> workers;

  ParameterAveraging(JavaSparkContext sc, ComputationGraph network, boolean averageUpdater, int microBatches,
      WorkerTimings timings, BlockMomentum outer, DriverBytesIn received) {
    this.sc = sc;
    this.received = received;
    this.network = network;
    this.averageUpdater = averageUpdater;
    this.microBatches = microBatches;
    this.timings = timings;
    this.outer = outer;
    this.workers = sc.broadcast(new ResidentWorkers());
  }

  /**
   * One averaging round: every partition of {@code round} (slot-ordered batches of one worker) is fitted
   * by a worker that starts from the current network; the workers' states are averaged through the
   * shuffle ({@link SliceReducers}, {@link AverageSlice}) and the driver gathers only the averaged
   * slices into the network, then applies the outer step. In local mode the concurrent workers share
   * ND4J's threads while they run ({@link LocalTaskThreads}).
   *
   * @param dropoutSeed base of the per-batch dropout seeds of this round
   * @param startStep the global step before this round
   * @param steps the updates each worker makes in this round (the global step advances by as many)
   */
  void fitRound(JavaPairRDD<Integer, Batch> round, long dropoutSeed, long startStep, int steps) {
    boolean outerStep = outer != null && outer.appliesFrom(startStep);
    INDArray before = outerStep ? network.params().dup() : null;
    INDArray parameters = network.params();
    INDArray updater = averageUpdater ? network.getUpdater().getStateViewArray() : null;
    long stateBytes = Float.BYTES * (parameters.length() + (updater == null ? 0 : updater.length()));
    SliceReducers reducers = SliceReducers.of(parameters.length(), stateBytes, round.getNumPartitions(), executors());
    Broadcast<RoundStart> start =
        sc.broadcast(new RoundStart(network.getConfiguration(), RoundState.of(network, averageUpdater), stepWorkspaceBytes));
    List<AverageSlice.Averaged> slices;
    try (LocalTaskThreads shared = LocalTaskThreads.share(round.context(), round.getNumPartitions())) {
      JavaPairRDD<Long, FitBatchesAsGiven.WorkerSlice> parts = JavaPairRDD.fromJavaRDD(round.mapPartitionsWithIndex(
          new FitBatchesAsGiven(start, averageUpdater, dropoutSeed, startStep, microBatches, timings, reducers, workers), false));
      sc.setLocalProperty(DriverBytesIn.PROPERTY, Long.toString(startStep));
      JavaFutureAction<List<AverageSlice.Averaged>> job;
      try {
        job = parts.repartitionAndSortWithinPartitions(reducers).mapPartitionsWithIndex(new AverageSlice(), false)
            .collectAsync();
      } finally {
        sc.setLocalProperty(DriverBytesIn.PROPERTY, null);
      }
      slices = resultOf(job);
      driverBytesIn = received.await(job.jobIds(), LISTENER_WAIT_SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted in an averaging round", e);
    } finally {
      start.destroy();
    }
    if (slices.isEmpty()) {
      throw new IllegalStateException("an averaging round had no batches");
    }
    for (AverageSlice.Averaged slice : slices) {
      slice.parameters().copyInto(parameters, reducers.start(parameters.length(), slice.slice()));
      if (updater != null) {
        slice.updater().copyInto(updater, reducers.start(updater.length(), slice.slice()));
      }
    }
    // every slice carries the workers' scores, in worker order: summed as one sum of whole results did
    double scores = 0;
    for (double workerScore : slices.get(0).scores()) {
      scores += workerScore;
    }
    score = scores / slices.get(0).scores().length;
    long[] workspaces = slices.get(0).stepWorkspaceBytes();
    stepWorkspaceBytes = Math.max(stepWorkspaceBytes, LongStream.of(workspaces).max().orElse(0));
    // what `sparknmt memory` plans as a task's step workspace (docs/notes/2026-12-06-memory-plan.md)
    LOG.info("round from step {}: the workers' step workspaces {} MiB", startStep,
        LongStream.of(workspaces).mapToObj(bytes -> String.format("%,d", bytes >> 20)).toList());
    network.getConfiguration().setIterationCount(Math.toIntExact(startStep + steps));
    if (outerStep) {
      outer.step(startStep, before, network.params());
    }
  }

  /**
   * In local mode, frees the workers' workspaces and networks now (the next round's workers start
   * afresh), so that the driver's own passes do not come on top of them in the shared JVM; elsewhere
   * the executors keep them.
   */
  void releaseLocalWorkers() {
    if (sc.isLocal()) {
      workers.value().release();
    }
  }

  /**
   * Ends the training's hold on its resident workers: freed now in local mode; the executors drop them,
   * and their threads end, freeing their workspaces, once idle.
   */
  @Override
  public void close() {
    releaseLocalWorkers();
    workers.destroy();
  }

  /** The round's executors: the slices are spread over them; 1 in local mode, where the driver runs the tasks. */
  private int executors() {
    return sc.isLocal() ? 1 : Math.max(1, sc.sc().statusTracker().getExecutorInfos().length - 1);
  }

  /** The job's result, or its failure as the blocking {@code collect()} would throw it. */
  private static <T> T resultOf(JavaFutureAction<T> job) throws InterruptedException {
    try {
      return job.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The bytes the driver received as task results in the last round (Spark's count); -1 when Spark's listener did not report them. */
  long driverBytesIn() {
    return driverBytesIn;
  }

  /** Writes the outer optimizer's state into a checkpoint; null with plain averaging, or before its first round. */
  CheckpointStore.ModelWriter outerState() {
    return outer == null ? null : outer.stateWriter();
  }

  /** This JVM's part of the resident workers: all of them in local mode. */
  ResidentWorkers residentWorkers() {
    return workers.value();
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
