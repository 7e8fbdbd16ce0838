package org.sparknmt.job.memory;

import org.sparknmt.model.TransformerConfig;
import org.sparknmt.model.nn.Transformer;

/**
 * What one training task needs, from the model's size and the batch's token budget, and the Spark
 * settings that give an executor that much: the heap ({@code spark.executor.memory}) for the data
 * pipeline and DL4J's Java side, the off-heap part ({@code spark.executor.memoryOverhead}, and
 * JavaCPP's caps inside it) for ND4J's arrays. Every coefficient is measured (docs/operations.md, Memory).
 *
 * @param parameters the model's parameter count
 * @param maxTokens data.max_tokens: the most tokens, padding included, of a batch's longer side
 * @param stepTokens the tokens one forward and backward pass covers: maxTokens, or with train.micro_batches a part's
 * @param modelStateBytes parameters, gradients, Adam's two moments and parameter averaging's copies (and with
 *     micro-batches the gradients' sum)
 * @param activationBytes the training step's workspace at stepTokens
 */
public record MemoryPlan(long parameters, int maxTokens, int stepTokens, long modelStateBytes, long activationBytes) {
  /** Float copies of the parameters a worker holds: values, gradients, Adam m and v, and averaging's broadcast and result. */
  static final int STATE_COPIES = 10;
  /**
   * Floats a step's workspace holds per token: PER_VOCAB per vocabulary entry (logits, softmax,
   * gradient) plus PER_LAYER_WIDTH per (d_model + d_ff) of each of the two stacks' layers. TrainBench
   * small (64 x 24 tokens) measured 1,226 MiB, this formula gives 1,418; tiny 289 MiB against 370.
   */
  static final int PER_VOCAB = 6;
  static final int PER_LAYER_WIDTH = 40;
  /** ND4J's workspace allocates 20 % more than its largest pass (PassWorkspace). */
  static final double WORKSPACE_OVERALLOCATION = 1.2;
  /** JVM metaspace, code cache, threads and GC structures, and ND4J's native libraries: 250-400 MiB measured. */
  static final long JVM_AND_LIBRARIES = 512L << 20;
  /** The executor heap: a training task used under 200 MiB of it (TrainBench, the quickstart's job); Spark wants some room. */
  static final long EXECUTOR_HEAP = 1L << 30;

  /**
   * What a reduce task's result holds besides its slice (its status and accumulator updates): at most
   * a few kB a task in bench-train-scaling (driver_bytes_in less the averaged state); 1 MiB leaves room.
   */
  static final long TASK_RESULT_MARGIN = 1L << 20;
  /** Spark's default spark.driver.maxResultSize. */
  static final long DEFAULT_MAX_RESULT_SIZE = 1L << 30;

  /** The least heap a driver or local-mode JVM gets: the launcher's default before it planned the heap. */
  static final long DEFAULT_HEAP = 2L << 30;
  /** A driver's heap besides the round's state: Spark's scheduler and block manager, the round plan, validation. */
  static final long DRIVER_BASE_HEAP = 1L << 30;
  /**
   * Copies of the round's state (parameters and Adam's two moments, 12 bytes a parameter) on a driver's
   * heap at once: the broadcast's value, its serialized blocks, and the averaged slices it gathers.
   */
  static final int DRIVER_STATE_COPIES = 3;
  /**
   * A reduce task's heap besides its W inputs, in slices: its averaged slice, that slice serialized, and
   * the task result serialized around it. A local-mode base model's first round died of a 2g heap while
   * two reducers serialized their results beside the driver's two copies of the state.
   */
  static final int REDUCER_RESULT_COPIES = 3;

  public MemoryPlan {
    if (parameters <= 0 || maxTokens <= 0 || stepTokens <= 0 || modelStateBytes <= 0 || activationBytes <= 0) {
      throw new IllegalArgumentException("a memory plan needs positive sizes");
    }
  }

  /** The plan for a model of this configuration and vocabulary, trained on whole batches of up to maxTokens tokens. */
  public static MemoryPlan of(TransformerConfig model, int vocabSize, int maxTokens) {
    return of(model, vocabSize, maxTokens, 1, maxTokens);
  }

  /**
   * The plan for batches of up to maxTokens tokens whose steps are computed in {@code microBatches} parts
   * (train.micro_batches): a step's workspace holds one part's activations, ceil(maxTokens / microBatches)
   * tokens, but at least those of the longest pair ({@code longestPair} tokens, data.max_subwords + 1), which a
   * part holds whole; and the worker holds one more copy of the parameters, the parts' gradients' sum.
   */
  public static MemoryPlan of(TransformerConfig model, int vocabSize, int maxTokens, int microBatches, int longestPair) {
    if (maxTokens <= 0) {
      throw new IllegalArgumentException("data.max_tokens must be positive to size memory, got " + maxTokens);
    }
    if (microBatches <= 0) {
      throw new IllegalArgumentException("train.micro_batches must be positive to size memory, got " + microBatches);
    }
    int stepTokens = stepTokens(maxTokens, microBatches, longestPair);
    long parameters = Transformer.layout(model, vocabSize).size();
    long floatsPerToken = (long) PER_VOCAB * vocabSize
        + (long) PER_LAYER_WIDTH * model.layers() * (model.dModel() + model.dFf());
    long activations = (long) (Float.BYTES * floatsPerToken * stepTokens * WORKSPACE_OVERALLOCATION);
    int copies = microBatches > 1 ? STATE_COPIES + 1 : STATE_COPIES;
    return new MemoryPlan(parameters, maxTokens, stepTokens, (long) copies * Float.BYTES * parameters, activations);
  }

  /** The tokens of one part of a batch of maxTokens cut into microBatches parts of whole pairs. */
  static int stepTokens(int maxTokens, int microBatches, int longestPair) {
    if (microBatches == 1) {
      return maxTokens;
    }
    int share = (maxTokens + microBatches - 1) / microBatches;
    return Math.min(maxTokens, Math.max(share, longestPair));
  }

  /** spark.executor.memory, in MiB. */
  public long executorHeapMib() {
    return EXECUTOR_HEAP >> 20;
  }

  /** spark.executor.memoryOverhead, in MiB: everything off the heap, for one training task per executor. */
  public long executorOverheadMib() {
    return mib(JVM_AND_LIBRARIES + modelStateBytes + activationBytes);
  }

  /** JavaCPP's maxphysicalbytes for an executor: the container's whole limit, heap and overhead. */
  public long executorProcessMib() {
    return executorHeapMib() + executorOverheadMib();
  }

  /**
   * The driver's heap, in MiB ({@code --driver-memory}, SPARKNMT_DRIVER_MEMORY), for rounds of
   * {@code workers} workers reduced by {@code slices} reducers, of which {@code localTasks} run at once
   * in the driver's JVM (local mode; 0 on a cluster): the driver's copies of the state, and each local
   * reducer's W input slices and its result's copies ({@link #driverHeapNeedMib}); never below the
   * launcher's former 2g.
   */
  public long driverHeapMib(int slices, int workers, int localTasks) {
    return Math.max(mib(DEFAULT_HEAP), driverHeapNeedMib(slices, workers, localTasks));
  }

  /**
   * The least driver heap, in MiB, that rounds of this model need ({@link #driverHeapMib} without its floor):
   * what {@code train} warns below. A small model's driver runs in less than the launcher's default, as the
   * quickstart's does.
   */
  public long driverHeapNeedMib(int slices, int workers, int localTasks) {
    long slice = (stateBytes() + slices - 1) / slices;
    long reducers = (long) localTasks * (workers + REDUCER_RESULT_COPIES) * slice;
    return mib(DRIVER_BASE_HEAP + DRIVER_STATE_COPIES * stateBytes() + reducers);
  }

  /** What a round averages and moves: the parameters and Adam's two moments, 12 bytes a parameter. */
  public long stateBytes() {
    return 3L * Float.BYTES * parameters;
  }

  /** ND4J's off-heap need of a local-mode JVM running {@code tasks} training tasks (the launcher's SPARKNMT_NATIVE_MEMORY). */
  public long localNativeMib(int tasks) {
    // the driver holds the averaged model and its updater state besides each task's copy
    return mib(JVM_AND_LIBRARIES + modelStateBytes + tasks * (modelStateBytes + activationBytes));
  }

  /** JavaCPP's maxphysicalbytes that a local-mode JVM with this heap needs for {@code tasks} training tasks. */
  public long localProcessMib(long heapMib, int tasks) {
    return heapMib + localNativeMib(tasks);
  }

  /**
   * spark.driver.maxResultSize, in MiB, for rounds reduced by {@code slices} reducers: the driver
   * receives one averaged state (the parameters and Adam's two moments) and a margin a task, whatever
   * the workers; never below Spark's default.
   */
  public long driverMaxResultSizeMib(int slices) {
    return mib(Math.max(DEFAULT_MAX_RESULT_SIZE, stateBytes() + slices * TASK_RESULT_MARGIN));
  }

  /** The spark-submit settings of one training task per executor (SPARKNMT_SUBMIT_ARGS takes them as they are). */
  public String sparkSubmitArgs() {
    return "--executor-memory " + executorHeapMib() + "m --conf spark.executor.memoryOverhead=" + executorOverheadMib() + "m";
  }

  private static long mib(long bytes) {
    return (bytes + (1L << 20) - 1) >> 20;
  }
}
