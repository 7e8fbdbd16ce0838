package org.sparknmt.job.threads;

import org.apache.spark.SparkContext;
import org.nd4j.linalg.factory.Nd4j;

/**
 * ND4J's native threads while a Spark job's tasks run inside this JVM (Spark local mode): a training
 * round's workers, or the tasks of a translation. ND4J gives every caller all the cores it was started
 * with, so {@code local[2]}'s two concurrent tasks ran twice as many GEMM and loop threads as there are
 * cores (measured: 15 % slower than one thread each on the Multi30k recipe). While the job runs each
 * task gets its share: OpenBLAS's thread count and libnd4j's loop threads ("master threads"; its
 * {@code setMaxThreads} does nothing in 1.0.0-M2). The driver's own work between jobs (validation,
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
    return sc.isLocal() ? among(Math.min(concurrentTasks, sc.defaultParallelism())) : new LocalTaskThreads(0);
  }

  /**
   * Shares ND4J's threads among {@code threads} Java threads of this JVM that compute at once (the
   * driver's validation searches), until closed; one thread changes nothing.
   */
  public static LocalTaskThreads among(int threads) {
    return new LocalTaskThreads(threads > 1 ? perTask(Nd4j.getEnvironment().maxMasterThreads(), threads) : 0);
  }

  /** Each task's share of {@code threads}: at least one. */
  static int perTask(int threads, int tasks) {
    return Math.max(1, threads / tasks);
  }

  /** The threads each task got; 0 when nothing was changed. */
  int perTask() {
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
