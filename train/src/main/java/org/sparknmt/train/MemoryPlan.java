package org.sparknmt.train;

import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * What one training task needs, from the model's size and the batch's token budget, and the Spark
 * settings that give an executor that much: the heap ({@code spark.executor.memory}) for the data
 * pipeline and DL4J's Java side, the off-heap part ({@code spark.executor.memoryOverhead}, and
 * JavaCPP's caps inside it) for ND4J's arrays; and what a local-mode JVM, the driver and its training
 * tasks in one process, needs: its heap and its off-heap memory. Every coefficient is measured
 * (docs/operations.md, Memory; docs/notes/2026-12-06-memory-plan.md).
 *
 * @param parameters the model's parameter count
 * @param maxTokens data.max_tokens: the most tokens, padding included, of a batch's longer side
 * @param stepTokens the tokens one forward and backward pass covers: maxTokens, or with train.micro_batches a part's
 * @param modelStateBytes a worker's network in ND4J's memory: parameters, gradients and Adam's two moments (and
 *     with micro-batches the gradients' sum), and its step's temporaries outside the workspace
 * @param activationBytes the training step's workspace at stepTokens
 */
public record MemoryPlan(long parameters, int maxTokens, int stepTokens, long modelStateBytes, long activationBytes) {
  /**
   * Float copies of the parameters in a worker's network, off the heap: values, gradients, Adam's m and v
   * (train.micro_batches adds one, the gradients' sum).
   */
  static final int WORKER_STATE_COPIES = 4;
  /**
   * Float copies of the parameters a worker holds for a while besides its network: the arrays a step makes
   * outside its workspace (the update, the state's copies into and out of the network), freed only by a
   * garbage collection. Transformer-base in local[2] (train.micro_batches = 6) held 640 MiB besides its full
   * heap, its two workers' and the driver's networks and the workspaces they reported, 256 MiB more than
   * JVM_AND_LIBRARIES; two runs of the same settings peaked 224 MiB apart, so a worker is planned two copies
   * (2 x 184 MiB for base).
   */
  static final int STEP_TEMPORARY_COPIES = 2;
  /** Float copies of the parameters in a local-mode driver's network, off the heap: values, Adam's m and v (it takes no step). */
  static final int DRIVER_NETWORK_COPIES = 3;
  /**
   * Float copies of the parameters that an executor holds besides its network: the round's broadcast state
   * and its result's slices (parameters and Adam's moments, 3 each). They live on the executor's heap, which
   * the cluster plan leaves at EXECUTOR_HEAP, so its overhead counts them; an executor under these limits was
   * not measured (ProductionSizeYarnIT runs under the YARN preset's 8g + 6g). In local mode the heap plan
   * counts them ({@link #driverHeapMib}).
   */
  static final int EXECUTOR_AVERAGING_COPIES = 6;
  /**
   * Floats a step's workspace holds per token: PER_VOCAB per vocabulary entry (logits, softmax, their
   * gradient), and for each of the two stacks' layers PER_D_MODEL per d_model (projections, heads, attention
   * outputs, residuals, norms, dropout masks and their gradients) and PER_D_FF per d_ff (the hidden layer);
   * and one float a parameter whatever the tokens (the pass's weight gradients). Fitted to the step
   * workspaces measured (PassWorkspace.size, which includes the 20 % below): MicroBatchBench small at
   * 64 x 24 tokens in 1, 2 and 4 parts (1,226, 630, 332 MiB: 34 MiB at no tokens, 4 bytes a parameter x 1.2);
   * TrainBench tiny (289 MiB); the quickstart's workers (672-676 MiB at 1,500 tokens, 344-350 at 750);
   * Transformer-base's (917-928 MiB at 250, train.micro_batches = 6). This rule gives 1.03-1.13x each
   * (docs/notes/2026-12-06-memory-plan.md).
   */
  static final int PER_VOCAB = 3;
  static final int PER_D_MODEL = 144;
  static final int PER_D_FF = 14;
  /** ND4J's workspace allocates 20 % more than its largest pass (PassWorkspace). */
  static final double WORKSPACE_OVERALLOCATION = 1.2;
  /**
   * A training JVM's own off-heap memory (metaspace, code cache, threads, GC structures) and ND4J's native
   * libraries: TrainBench tiny and small (64 x 24 tokens, no Spark) held 290-370 MiB besides their network
   * and workspace, their small heap included; the quickstart's local[2] JVM 370-420 MiB besides its
   * committed heap, its networks and workspaces (NMT: 300 MiB of it the JVM's own).
   */
  static final long JVM_AND_LIBRARIES = 384L << 20;
  /**
   * The same in an executor, Spark's executor beside ND4J: the former figure for every JVM (250-400 MiB
   * measured then), kept for executors, which were not measured under the cluster plan's own limits.
   */
  static final long EXECUTOR_JVM_AND_LIBRARIES = 512L << 20;
  /** The executor heap: a training task used under 200 MiB of it (TrainBench, the quickstart's job); Spark wants some room. */
  static final long EXECUTOR_HEAP = 1L << 30;

  /**
   * What a reduce task's result holds besides its slice (its status and accumulator updates): at most
   * a few kB a task in bench-train-scaling (driver_bytes_in less the averaged state); 1 MiB leaves room.
   */
  static final long TASK_RESULT_MARGIN = 1L << 20;
  /** Spark's default spark.driver.maxResultSize. */
  static final long DEFAULT_MAX_RESULT_SIZE = 1L << 30;

  /** A driver's heap besides the round's state: Spark's scheduler and block manager, the round plan, validation. */
  static final long DRIVER_BASE_HEAP = 1L << 30;
  /**
   * Copies of the round's state (parameters and Adam's two moments, 12 bytes a parameter) on a driver's
   * heap at once: the broadcast's value, its serialized blocks, and the averaged slices it gathers.
   * Transformer-base in local[2] filled the whole planned heap (3,294 MiB committed in its rounds), and
   * died of a 2g one: the rule is not above its need.
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
        + (long) model.layers() * ((long) PER_D_MODEL * model.dModel() + (long) PER_D_FF * model.dFf());
    long activations = (long) (Float.BYTES * (parameters + floatsPerToken * stepTokens) * WORKSPACE_OVERALLOCATION);
    int copies = WORKER_STATE_COPIES + STEP_TEMPORARY_COPIES + (microBatches > 1 ? 1 : 0);
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

  /**
   * spark.executor.memoryOverhead, in MiB: everything off the heap, for one training task per executor, and
   * the averaging's copies of the state that its fixed heap leaves out.
   */
  public long executorOverheadMib() {
    return mib(EXECUTOR_JVM_AND_LIBRARIES + modelStateBytes + EXECUTOR_AVERAGING_COPIES * parameterBytes() + activationBytes);
  }

  /** JavaCPP's maxphysicalbytes for an executor: the container's whole limit, heap and overhead. */
  public long executorProcessMib() {
    return executorHeapMib() + executorOverheadMib();
  }

  /**
   * The driver's heap, in MiB ({@code --driver-memory}, SPARKNMT_DRIVER_MEMORY), for rounds of
   * {@code workers} workers reduced by {@code slices} reducers, of which {@code localTasks} run at once
   * in the driver's JVM (local mode; 0 on a cluster): the driver's copies of the state, and each local
   * reducer's W input slices and its result's copies; what {@code train} warns below. It has no floor: the
   * quickstart's model trains in local[2] with a 1g heap, below the 1,360 MiB planned for it.
   */
  public long driverHeapMib(int slices, int workers, int localTasks) {
    long slice = (stateBytes() + slices - 1) / slices;
    long reducers = (long) localTasks * (workers + REDUCER_RESULT_COPIES) * slice;
    return mib(DRIVER_BASE_HEAP + DRIVER_STATE_COPIES * stateBytes() + reducers);
  }

  /** One float copy of the parameters. */
  long parameterBytes() {
    return Float.BYTES * parameters;
  }

  /** What a round averages and moves: the parameters and Adam's two moments, 12 bytes a parameter. */
  public long stateBytes() {
    return 3L * Float.BYTES * parameters;
  }

  /**
   * The off-heap need of a local-mode JVM running {@code tasks} training tasks (the launcher's
   * SPARKNMT_NATIVE_MEMORY): the JVM's own, the driver's network, and each task's network and step workspace.
   * The round's state on its way (the broadcast, the shuffle's slices, the gathered mean) is on the heap.
   */
  public long localNativeMib(int tasks) {
    return mib(JVM_AND_LIBRARIES + DRIVER_NETWORK_COPIES * parameterBytes() + tasks * (modelStateBytes + activationBytes));
  }

  /**
   * The native memory of one training task alone in a JVM without Spark (TrainBench, MicroBatchBench): the
   * JVM's own and ND4J's libraries, the network and the step workspace; its heap holds little.
   */
  public long taskNativeMib() {
    return mib(JVM_AND_LIBRARIES + modelStateBytes + activationBytes);
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
