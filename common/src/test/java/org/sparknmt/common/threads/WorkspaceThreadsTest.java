package org.sparknmt.common.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.nativeblas.NativeOpsHolder;
import org.sparknmt.model.infer.PassWorkspace;

/** Searches run on threads that keep their workspaces between calls, and that end, freeing them, when idle. */
class WorkspaceThreadsTest {
  private static final long SEARCH_BYTES = 4L << 20;

  /** What a search leaves: its workspace, on the thread it ran on. */
  private static Thread search() {
    try (MemoryWorkspace search = PassWorkspace.open(PassWorkspace.SEARCH)) {
      Nd4j.create(DataType.FLOAT, SEARCH_BYTES / 4).addi(1);
    }
    return Thread.currentThread();
  }

  @Test
  void theNextSearchRunsOnTheSameThreadAndFindsItsWorkspace() {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);
    Thread first = threads.run(WorkspaceThreadsTest::search);
    assertNotEquals(Thread.currentThread(), first);
    // the thread is idle before its caller has the result: no race with the next call
    for (int i = 0; i < 200; i++) {
      assertEquals(first, threads.run(Thread::currentThread));
    }
    assertTrue(threads.run(() -> PassWorkspace.size(PassWorkspace.SEARCH)) >= SEARCH_BYTES);
    assertEquals(1, threads.threads());
  }

  @Test
  void aSearchRunsAsManyOpenMpThreadsAsLibnd4jHasMasterThreads() {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);
    int masterThreads = Nd4j.getEnvironment().maxMasterThreads();
    int ours = openMpThreads();
    try {
      // libnd4j caps its master threads at the cores
      for (int share : new int[] {1, masterThreads, 1}) {
        Nd4j.getEnvironment().setMaxMasterThreads(share);
        assertEquals(share, threads.run(WorkspaceThreadsTest::openMpThreads));
      }
    } finally {
      Nd4j.getEnvironment().setMaxMasterThreads(masterThreads);
    }
    // OpenMP keeps the count per thread: the caller's is unchanged
    assertEquals(ours, openMpThreads());
  }

  private static int openMpThreads() {
    return NativeOpsHolder.getInstance().getDeviceNativeOps().ompGetMaxThreads();
  }

  @Test
  void concurrentSearchesGetAThreadEach() throws Exception {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);
    CountDownLatch both = new CountDownLatch(2);
    CompletableFuture<Thread> a = CompletableFuture.supplyAsync(() -> threads.run(() -> meet(both)));
    CompletableFuture<Thread> b = CompletableFuture.supplyAsync(() -> threads.run(() -> meet(both)));
    assertNotEquals(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
    assertEquals(2, threads.threads());
  }

  private static Thread meet(CountDownLatch both) {
    both.countDown();
    try {
      assertTrue(both.await(30, TimeUnit.SECONDS), "the other search never ran at the same time");
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    return Thread.currentThread();
  }

  @Test
  void searchesRunTogetherEachOnAThreadAndComeBackInOrder() {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);
    CountDownLatch all = new CountDownLatch(3);
    List<Thread> ran = threads.runAll(List.of(() -> meet(all), () -> meet(all), () -> meet(all)));
    assertEquals(3, ran.stream().distinct().count());
    assertEquals(List.of(1, 2, 3), threads.runAll(List.of(() -> 1, () -> 2, () -> 3)));
  }

  @Test
  void aSearchThrowsWhatItThrew() {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);
    IllegalArgumentException thrown = new IllegalArgumentException("beam width 9000 must be smaller than the vocabulary");
    assertSame(thrown, assertThrows(IllegalArgumentException.class, () -> threads.run(() -> {
      throw thrown;
    })));
    OutOfMemoryError error = new OutOfMemoryError("native");
    assertSame(error, assertThrows(OutOfMemoryError.class, () -> threads.run(() -> {
      throw error;
    })));
  }

  @Test
  void endIdleEndsTheIdleThreadsAtOnceAndFreesTheirWorkspaces() throws Exception {
    WorkspaceThreads threads = WorkspaceThreads.forTraining(3600);
    MemoryWorkspace[] kept = new MemoryWorkspace[1];
    Thread searched = searchKeepingWorkspace(threads, kept);
    assertTrue(searched.getName().startsWith("sparknmt training "), searched.getName());
    threads.endIdle();
    assertEndedAndFreed(searched, threads, kept[0]);
    // the next pass makes a thread anew
    assertNotEquals(searched, threads.run(Thread::currentThread));
  }

  @Test
  void anIdleThreadEndsAndFreesItsWorkspace() throws Exception {
    WorkspaceThreads threads = WorkspaceThreads.forSearches(1);
    MemoryWorkspace[] kept = new MemoryWorkspace[1];
    assertEndedAndFreed(searchKeepingWorkspace(threads, kept), threads, kept[0]);
  }

  /** Runs a search on one of {@code threads}; returns its thread, and its workspace in {@code kept[0]}. */
  private static Thread searchKeepingWorkspace(WorkspaceThreads threads, MemoryWorkspace[] kept) {
    Thread searched = threads.run(() -> {
      Thread thread = search();
      kept[0] = Nd4j.getWorkspaceManager().getWorkspaceForCurrentThread(PassWorkspace.SEARCH);
      return thread;
    });
    assertTrue(kept[0].getCurrentSize() >= SEARCH_BYTES);
    return searched;
  }

  private static void assertEndedAndFreed(Thread searched, WorkspaceThreads threads, MemoryWorkspace workspace)
      throws InterruptedException {
    searched.join(TimeUnit.SECONDS.toMillis(30));
    assertFalse(searched.isAlive());
    assertEquals(0, threads.threads());
    assertEquals(0, workspace.getCurrentSize());
  }
}
