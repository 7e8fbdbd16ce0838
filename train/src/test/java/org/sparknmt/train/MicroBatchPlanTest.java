package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.sparknmt.model.nn.TransformerConfig;

/** With train.micro_batches a step's workspace is planned for one part of the batch. */
class MicroBatchPlanTest {
  private static final TransformerConfig BASE = new TransformerConfig(512, 8, 2048, 6, 512, 0.1, 0.0, 0.1, true, false, false);

  @Test
  void aStepsActivationsAreOnePartsAndTheSumOneMoreCopy() {
    MemoryPlan whole = MemoryPlan.of(BASE, 8000, 1500);
    MemoryPlan thirds = MemoryPlan.of(BASE, 8000, 1500, 3, 255);
    assertEquals(whole, MemoryPlan.of(BASE, 8000, 1500, 1, 255), "one part is the whole batch");
    assertEquals(1500, whole.stepTokens());
    assertEquals(500, thirds.stepTokens());
    assertEquals(MemoryPlan.of(BASE, 8000, 500).activationBytes(), thirds.activationBytes());
    assertEquals(whole.modelStateBytes() + 4 * whole.parameters(), thirds.modelStateBytes(), "the gradients' sum");
  }

  @Test
  void aPartHoldsAtLeastTheLongestPairAndAtMostTheBatch() {
    assertEquals(375, MemoryPlan.stepTokens(1500, 4, 255));
    assertEquals(429, MemoryPlan.stepTokens(3000, 7, 255), "ceil(3000 / 7)");
    assertEquals(255, MemoryPlan.stepTokens(1500, 8, 255), "one pair of 254 subwords and EOS is not cut");
    assertEquals(200, MemoryPlan.stepTokens(200, 4, 255), "never more than the batch");
  }
}
