package org.sparknmt.common.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.testkit.SparkCluster;

/** ND4J's threads are shared among local mode's concurrent training tasks, and given back after. */
class LocalTaskThreadsTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  private int threads;

  @BeforeEach
  void atLeastTwoThreads() {
    threads = Nd4j.getEnvironment().maxMasterThreads();
    // ND4J caps its thread count at the machine's cores; sharing needs two of them to show
    assumeTrue(threads >= 2 && Nd4j.factory().blas().getMaxThreads() == threads, "needs 2 cores, ND4J has " + threads);
  }

  @Test
  void twoLocalTasksGetHalfTheThreadsEachUntilTheRoundEnds() {
    try (LocalTaskThreads shared = LocalTaskThreads.share(SPARK.sc().sc(), 2)) {
      assertEquals(threads / 2, shared.perTask());
      assertEquals(threads / 2, Nd4j.getEnvironment().maxMasterThreads());
      assertEquals(threads / 2, Nd4j.factory().blas().getMaxThreads());
    }
    assertEquals(threads, Nd4j.getEnvironment().maxMasterThreads());
    assertEquals(threads, Nd4j.factory().blas().getMaxThreads());
  }

  @Test
  void moreWorkersThanTaskSlotsShareAmongTheSlots() {
    try (LocalTaskThreads shared = LocalTaskThreads.share(SPARK.sc().sc(), 8)) {
      assertEquals(threads / 2, shared.perTask(), "local[2] runs 2 of the 8 workers' tasks at a time");
    }
  }

  @Test
  void oneTaskKeepsEveryThread() {
    try (LocalTaskThreads shared = LocalTaskThreads.share(SPARK.sc().sc(), 1)) {
      assertEquals(0, shared.perTask());
      assertEquals(threads, Nd4j.getEnvironment().maxMasterThreads());
    }
    assertEquals(threads, Nd4j.getEnvironment().maxMasterThreads());
  }

  @Test
  void everyTaskGetsAtLeastOneThread() {
    assertEquals(1, LocalTaskThreads.perTask(2, 3));
    assertEquals(3, LocalTaskThreads.perTask(12, 4));
  }
}
