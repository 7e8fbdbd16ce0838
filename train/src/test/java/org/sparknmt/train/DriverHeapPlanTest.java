package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The driver's heap as {@code sparknmt memory} plans it, and the need below which {@code train} warns. */
class DriverHeapPlanTest {
  /** Only the parameter count enters the driver's plan. */
  private static MemoryPlan plan(long parameters) {
    return new MemoryPlan(parameters, 1500, 1500, 1, 1);
  }

  @Test
  void transformerBaseGetsTheHeapItsStateNeeds() {
    MemoryPlan base = plan(48_234_496);
    int slices = SliceReducers.count(base.parameters(), base.stateBytes(), 2, 2);
    assertEquals(9, slices, "64 MiB slices of the 579 MB state");
    // 1 GiB + 3 copies of the state on a cluster; in local[2] also the two reducers' inputs and results
    assertEquals(2680, base.driverHeapMib(slices, 2, 0));
    assertEquals(3294, base.driverHeapMib(slices, 2, 2));
  }

  @Test
  void aSmallModelIsPlannedTheHeapItNeedsWithoutTheFormerFloor() {
    MemoryPlan quickstart = plan(3_659_776);
    int slices = SliceReducers.count(quickstart.parameters(), quickstart.stateBytes(), 2, 1);
    long heap = quickstart.driverHeapMib(slices, 2, 2);
    assertTrue(heap > 1024 && heap < 1536, "1 GiB and a few copies of a 44 MB state, got " + heap + " MiB");
  }
}
