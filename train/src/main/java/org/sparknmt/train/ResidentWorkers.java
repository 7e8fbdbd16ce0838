package org.sparknmt.train;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.common.threads.WorkspaceThreads;
import org.sparknmt.model.infer.PassWorkspace;

/**
 * What an executor keeps of its training workers from one averaging round to the next: the threads
 * their steps run on, each of which keeps its step workspace ({@link WorkspaceThreads}), and their
 * networks, which the next round's workers reset to the round's state ({@link RoundStart#reset}) instead
 * of building anew. Broadcast once per training run; each JVM makes its threads on first use, as
 * {@code TranslationModel} keeps its graphs and search threads. A worker that reserved its workspace and
 * built its network in every round, on whichever thread Spark gave its task, spent as much time on that
 * as the reduction of the round took (docs/notes/2026-12-05-fit-share.md).
 *
 * <p>A network is back in the pool once its task has handed the shuffle all of its slices; one whose
 * worker failed or was cancelled is left to the garbage collector, as its state is unknown. An
 * executor's threads end and free their workspaces when idle for a minute; in local mode the driver
 * frees them itself before validation, whose own workspaces would otherwise come on top ({@link #release}).
 */
final class ResidentWorkers implements Serializable {
  private static final long serialVersionUID = 1L;
  /** As long as Spark keeps an idle executor thread: longer than a round and a validation usually take. */
  private static final long IDLE_SECONDS = 60;

  private transient WorkspaceThreads threads;
  private transient Deque<ComputationGraph> networks;
  private transient int built;

  /**
   * Runs {@code worker} on one of the threads with a network at {@code start}'s state (a kept one,
   * reset, or a new one) after reserving the step workspace that {@code start} names when the thread
   * has none; returns what it returned. Give the network back ({@link #giveBack}) when done with it.
   */
  <T> T run(RoundStart start, Function<ComputationGraph, T> worker) {
    return threads().run(() -> {
      PassWorkspace.reserve(PassWorkspace.TRAINING_STEP, start.stepWorkspaceBytes());
      ComputationGraph kept = take();
      if (kept == null) {
        return worker.apply(built(start));
      }
      start.reset(kept);
      return worker.apply(kept);
    });
  }

  /** Keeps {@code network} for a later worker of this JVM. */
  synchronized void giveBack(ComputationGraph network) {
    networks().push(network);
  }

  /**
   * Frees what this JVM keeps now: the idle threads' workspaces and the networks' arrays. The next
   * round's workers start afresh. In local mode the driver calls it before its own passes (validation)
   * and at the end of training, as it shares its JVM with the workers.
   */
  void release() {
    WorkspaceThreads made;
    List<ComputationGraph> kept;
    synchronized (this) {
      made = threads;
      kept = List.copyOf(networks());
      networks().clear();
    }
    if (made != null) {
      made.endIdle();
    }
    kept.forEach(ResidentWorkers::free);
  }

  /**
   * Frees a network's own arrays now, which a garbage collection would do late: the heap hardly fills
   * while native arrays come and go. Not {@code ComputationGraph.close()}, which also destroys the
   * calling thread's workspaces.
   */
  private static void free(ComputationGraph network) {
    for (INDArray array : new INDArray[] {network.params(), network.getGradientsViewArray(),
        network.getUpdater().getStateViewArray()}) {
      if (array != null && array.closeable()) {
        array.close();
      }
    }
  }

  /** Networks this JVM built for its workers (the others were kept ones, reset). */
  synchronized int networksBuilt() {
    return built;
  }

  private ComputationGraph built(RoundStart start) {
    synchronized (this) {
      built++;
    }
    return start.network();
  }

  private synchronized ComputationGraph take() {
    return networks().poll();
  }

  private synchronized Deque<ComputationGraph> networks() {
    if (networks == null) {
      networks = new ArrayDeque<>();
    }
    return networks;
  }

  private synchronized WorkspaceThreads threads() {
    if (threads == null) {
      threads = WorkspaceThreads.forTraining(IDLE_SECONDS);
    }
    return threads;
  }
}
