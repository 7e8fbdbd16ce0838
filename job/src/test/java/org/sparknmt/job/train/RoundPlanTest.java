package org.sparknmt.job.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RoundPlanTest {
  @Test
  void everyBatchIsFittedExactlyOncePerEpoch() {
    RoundPlan plan = new RoundPlan(7, 0, 23, 2, 5);
    assertEquals(3, plan.rounds());
    TreeSet<Long> seen = new TreeSet<>();
    int count = 0;
    for (int round = 0; round < plan.rounds(); round++) {
      Map<Long, Integer> slots = plan.slots(round);
      seen.addAll(slots.keySet());
      count += slots.size();
      assertEquals(new TreeSet<>(slots.values()).first(), 0, "slots start at 0 in every round");
    }
    assertEquals(23, count);
    assertEquals(23, seen.size());
    assertEquals(0L, seen.first());
    assertEquals(22L, seen.last());
  }

  @Test
  void lastRoundIsPartial() {
    RoundPlan plan = new RoundPlan(7, 0, 23, 2, 5);
    assertEquals(3, plan.slots(2).size());
  }

  @Test
  void theOrderDependsOnlyOnSeedAndEpoch() {
    assertEquals(order(new RoundPlan(7, 3, 50, 2, 5)), order(new RoundPlan(7, 3, 50, 2, 5)));
    assertEquals(order(new RoundPlan(7, 3, 50, 2, 5)), order(new RoundPlan(7, 3, 50, 5, 2)),
        "changing workers x k keeps the epoch's order");
    assertNotEquals(order(new RoundPlan(7, 3, 50, 2, 5)), order(new RoundPlan(7, 4, 50, 2, 5)));
    assertNotEquals(order(new RoundPlan(7, 3, 50, 2, 5)), order(new RoundPlan(8, 3, 50, 2, 5)));
  }

  @Test
  void outOfRangeRoundIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new RoundPlan(7, 0, 10, 2, 5).slots(1));
  }

  /** Batch indices in the order they are fitted. */
  private static List<Long> order(RoundPlan plan) {
    List<Long> order = new ArrayList<>();
    for (int round = 0; round < plan.rounds(); round++) {
      Map<Long, Integer> slots = plan.slots(round);
      slots.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> order.add(e.getKey()));
    }
    return order;
  }
}
