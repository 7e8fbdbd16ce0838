package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
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
  void anEpochTakesTheStepsOfItsFullestWorkers() {
    // the Multi30k recipe: 328 batches, 2 workers, k = 10 take 168 steps an epoch, not 328 / 2
    for (int[] c : new int[][] {{23, 2, 5}, {328, 2, 10}, {20, 2, 10}, {7, 3, 1}, {5, 4, 3}}) {
      RoundPlan plan = new RoundPlan(7, 0, c[0], c[1], c[2]);
      long steps = 0;
      for (int round = 0; round < plan.rounds(); round++) {
        steps += plan.steps(round);
      }
      assertEquals(steps, RoundPlan.stepsPerEpoch(c[0], c[1], c[2]), Arrays.toString(c));
    }
    assertEquals(168, RoundPlan.stepsPerEpoch(328, 2, 10));
    assertEquals(13, RoundPlan.stepsPerEpoch(23, 2, 5), "5 + 5 + the last round's 3");
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
