package org.sparknmt.common.threads;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.nativeblas.NativeOpsHolder;
import org.sparknmt.model.infer.PassWorkspace;

/**
 * Threads that run passes (searches, or a training worker's steps) and keep their ND4J workspaces from
 * one pass to the next, across Spark tasks. A pass's workspaces belong to its thread and are sized by its
 * largest pass, and where a freshly mapped page is expensive (a virtual machine faulting each page in),
 * tasks that sized them anew on their own threads and freed them at their end spent more time on that
 * memory than on searching, and a large part of a training round on it. A Spark task cannot know whether
 * its own thread will run the next task, so it hands its pass to one of these and waits.
 *
 * <p>A pass takes an idle thread, or makes one when none is idle, so there are as many threads as
 * passes ever ran at once (a JVM's concurrent tasks), and a thread is idle again before its caller
 * sees the result, so a task's next pass finds it. A thread idle for {@code idleSeconds} ends and
 * frees its workspaces, so a finished job's memory is given back shortly after.
 */
public final class WorkspaceThreads {
  private final long idleSeconds;
  private final boolean shareOpenMp;
  private final String name;
  private final Deque<Worker> idle = new ArrayDeque<>();
  private int alive;
  private int made;

  private WorkspaceThreads(String name, long idleSeconds, boolean shareOpenMp) {
    this.name = name;
    this.idleSeconds = idleSeconds;
    this.shareOpenMp = shareOpenMp;
  }

  /** Threads for searches, each given its share of OpenMP's threads before it runs one ({@link Worker#shareOpenMpThreads}). */
  public static WorkspaceThreads forSearches(long idleSeconds) {
    return new WorkspaceThreads("sparknmt search ", idleSeconds, true);
  }

  /**
   * Threads for training workers, with OpenMP's threads as a Spark task's own thread has them, so that a
   * worker's arithmetic is the one it had on its task's thread.
   */
  public static WorkspaceThreads forTraining(long idleSeconds) {
    return new WorkspaceThreads("sparknmt training ", idleSeconds, false);
  }

  /** Runs {@code pass} on one of the threads and returns its result, or throws what it threw. */
  public <T> T run(Supplier<T> pass) {
    return runAll(List.of(pass)).get(0);
  }

  /**
   * Runs the passes at the same time, each on a thread of its own, and returns their results in
   * their order; throws what the first of them to fail threw, after all have ended.
   */
  public <T> List<T> runAll(List<Supplier<T>> passes) {
    List<CompletableFuture<T>> results = new ArrayList<>();
    try {
      for (Supplier<T> pass : passes) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Worker worker = take();
        worker.jobs.put(() -> {
          try {
            if (shareOpenMp) {
              worker.shareOpenMpThreads();
            }
            T value = pass.get();
            idleAgain(worker);
            result.complete(value);
          } catch (Throwable e) {
            idleAgain(worker);
            result.completeExceptionally(e);
          }
        });
        results.add(result);
      }
      CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get();
      List<T> values = new ArrayList<>();
      for (CompletableFuture<T> result : results) {
        values.add(result.get());
      }
      return values;
    } catch (InterruptedException e) {
      // a cancelled Spark task stops waiting; its passes end on their own and free their threads
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while a pass ran");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** Threads alive now, busy or idle. */
  public synchronized int threads() {
    return alive;
  }

  private synchronized Worker take() {
    Worker worker = idle.pollFirst();
    if (worker == null) {
      worker = new Worker();
      alive++;
      worker.thread = new Thread(worker::work, name + ++made);
      worker.thread.setDaemon(true);
      worker.thread.start();
    }
    return worker;
  }

  /** A worker's pass is done: the most recently used thread is taken first. */
  private synchronized void idleAgain(Worker worker) {
    idle.addFirst(worker);
  }

  /** Whether an idle worker leaves: not when a pass took it in the meantime. */
  private synchronized boolean leave(Worker worker) {
    if (idle.remove(worker)) {
      alive--;
      return true;
    }
    return false;
  }

  /** Ends the idle threads now, each freeing its workspaces; busy ones stay, and so do their workspaces. */
  public synchronized void endIdle() {
    for (Worker worker : idle) {
      worker.thread.interrupt();
    }
    idle.clear();
  }

  private final class Worker {
    private final SynchronousQueue<Runnable> jobs = new SynchronousQueue<>();
    private Thread thread;

    /**
     * Gives this thread's OpenMP regions (libnd4j's GEMMs, through oneDNN, and many of its loops) as many
     * threads as libnd4j's master threads have now: all the cores, or a local-mode task's share while
     * {@link LocalTaskThreads} shares them. OpenMP keeps the count per thread, so nothing else changes,
     * and OMP_NUM_THREADS otherwise gives every search all the cores: two searches of local[2] ran four
     * OpenMP threads on two cores, each waiting on the other's.
     */
    private void shareOpenMpThreads() {
      // Nd4j first: its initialization loads the native ops, and the other order, on two threads at once, left one of them without
      int share = Nd4j.getEnvironment().maxMasterThreads();
      NativeOpsHolder.getInstance().getDeviceNativeOps().setOmpNumThreads(share);
    }

    private void work() {
      try {
        while (true) {
          Runnable job = jobs.poll(idleSeconds, TimeUnit.SECONDS);
          if (job != null) {
            job.run();
          } else if (leave(this)) {
            return;
          }
        }
      } catch (InterruptedException e) {
        synchronized (WorkspaceThreads.this) {
          idle.remove(this);
          alive--;
        }
      } finally {
        PassWorkspace.release();
      }
    }
  }
}
