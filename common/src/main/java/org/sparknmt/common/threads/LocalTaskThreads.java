package org.sparknmt.common.threads;

import org.apache.spark.SparkContext;
import org.nd4j.linalg.factory.Nd4j;

/**
 * ND4J's native threads while a job's concurrent tasks run inside this JVM (Spark local mode): a
 * training round's workers, or translation tasks. ND4J gives every caller all the cores it was started
 * with, so {@code local[2]}'s two concurrent tasks ran twice as many GEMM and loop threads as there are
 * cores, which made both training and translation slower than one thread each. While the tasks run
 * each gets its share: OpenBLAS's thread count and libnd4j's loop threads ("master threads"; its
 * {@code setMaxThreads} does nothing in 1.0.0-M2). The driver's own work between rounds (validation,
 * checkpoints) gets all of them back. Executors of a cluster are separate JVMs, sized by
 * {@code spark.executorEnv.OMP_NUM_THREADS}.
 */
public final class LocalTaskThreads implements AutoCloseable {
  private final int perTask;
  private final int environmentThreads;
  private final int blasThreads;

  private LocalTaskThreads(int perTask) {
    this.perTask = perTask;
    environmentThreads = Nd4j.getEnvironment().maxMasterThreads();
    blasThreads = Nd4j.factory().blas().getMaxThreads();
    if (perTask > 0) {
      Nd4j.getEnvironment().setMaxMasterThreads(perTask);
      Nd4j.factory().blas().setMaxThreads(perTask);
    }
  }

  /**
   * Shares ND4J's threads among {@code concurrentTasks} tasks until closed, when {@code sc} runs its
   * tasks in this JVM and more than one of them at a time; otherwise changes nothing.
   */
  public static LocalTaskThreads share(SparkContext sc, int concurrentTasks) {
    int tasks = Math.min(concurrentTasks, sc.defaultParallelism());
    boolean shared = sc.isLocal() && tasks > 1;
    return new LocalTaskThreads(shared ? perTask(Nd4j.getEnvironment().maxMasterThreads(), tasks) : 0);
  }

  /** Each task's share of {@code threads}: at least one. */
  public static int perTask(int threads, int tasks) {
    return Math.max(1, threads / tasks);
  }

  /** The threads each task got; 0 when nothing was changed. */
  public int perTask() {
    return perTask;
  }

  @Override
  public void close() {
    if (perTask > 0) {
      Nd4j.getEnvironment().setMaxMasterThreads(environmentThreads);
      Nd4j.factory().blas().setMaxThreads(blasThreads);
    }
  }
}
