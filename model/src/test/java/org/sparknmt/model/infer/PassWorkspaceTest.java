package org.sparknmt.model.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.memory.abstracts.Nd4jWorkspace;
import org.nd4j.linalg.factory.Nd4j;

/** A pass workspace learns its size from its first pass, unless that size was reserved beforehand. */
class PassWorkspaceTest {
  private static final String ID = PassWorkspace.TRAINING_STEP;
  private static final long PASS_BYTES = 4L << 20;

  // other tests on this thread may have left their step workspace; each test starts without one
  @BeforeEach
  void startWithoutWorkspaces() {
    PassWorkspace.release();
  }

  @AfterEach
  void release() {
    PassWorkspace.release();
  }

  /** One pass allocating four 1 MiB arrays; returns the bytes that did not fit into the workspace. */
  private static long spilledByOnePass() {
    try (MemoryWorkspace pass = PassWorkspace.open(ID)) {
      for (int i = 0; i < 4; i++) {
        Nd4j.create(DataType.FLOAT, 256, 1024).addi(1);
      }
      return ((Nd4jWorkspace) pass).getSpilledSize();
    }
  }

  @Test
  void anUnreservedWorkspaceSpillsItsFirstPass() {
    assertTrue(spilledByOnePass() >= PASS_BYTES, "the first pass is spilled while the workspace learns its size");
    assertEquals(0, spilledByOnePass(), "the second pass fits");
  }

  @Test
  void aReservedWorkspaceHoldsTheFirstPass() {
    PassWorkspace.reserve(ID, PASS_BYTES + (1 << 20));
    assertEquals(PASS_BYTES + (1 << 20), PassWorkspace.size(ID));
    assertEquals(0, spilledByOnePass());
  }

  @Test
  void aReservationDoesNotResizeAnExistingWorkspace() {
    spilledByOnePass();
    long learned = PassWorkspace.size(ID);
    PassWorkspace.reserve(ID, 10 * learned);
    assertEquals(learned, PassWorkspace.size(ID));
  }

  @Test
  void aLargerPassThanReservedStillGrowsTheWorkspace() {
    PassWorkspace.reserve(ID, PASS_BYTES / 2);
    assertTrue(spilledByOnePass() > 0);
    assertTrue(PassWorkspace.size(ID) >= PASS_BYTES, "grown to " + PassWorkspace.size(ID));
    assertEquals(0, spilledByOnePass());
  }
}
