package org.sparknmt.train;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.sparknmt.base.Seeds;

/**
 * Which batches each worker fits in each averaging round of an epoch. The epoch's order is a
 * permutation of the batch indices drawn from (seed, epoch) alone, so a resumed run replays exactly
 * the rounds it had not done. Round r covers positions [r·W·k, (r+1)·W·k) of that order; worker w
 * gets the k consecutive positions starting at r·W·k + w·k, fitted in order.
 */
public final class RoundPlan {
  /** Names the epoch-order stream among the run's random streams. */
  private static final long EPOCH_ORDER_STREAM = 1;

  private final int[] order;
  private final int workers;
  private final int averagingFrequency;

  /**
   * @param batches number of training batches
   * @param workers W, partitions per round
   * @param averagingFrequency k, batches per worker per round
   */
  public RoundPlan(long seed, int epoch, int batches, int workers, int averagingFrequency) {
    if (batches <= 0 || workers <= 0 || averagingFrequency <= 0) {
      throw new IllegalArgumentException("batches, workers and averaging frequency must be positive");
    }
    this.order = permutation(seed, epoch, batches);
    this.workers = workers;
    this.averagingFrequency = averagingFrequency;
  }

  /** Fisher–Yates with a generator seeded by (seed, epoch). */
  static int[] permutation(long seed, int epoch, int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(Seeds.mix(Seeds.mix(seed, EPOCH_ORDER_STREAM), epoch));
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }

  public int rounds() {
    int perRound = workers * averagingFrequency;
    return (order.length + perRound - 1) / perRound;
  }

  /**
   * The updates each worker makes in round {@code round}, and so how far the global step advances: k,
   * or the fullest worker's batches in a last round short of W·k batches.
   */
  public int steps(int round) {
    return Math.min(averagingFrequency, slots(round).size());
  }

  /** The global steps of an epoch: the sum of {@link #steps(int)} over its rounds. */
  static long stepsPerEpoch(int batches, int workers, int averagingFrequency) {
    int perRound = workers * averagingFrequency;
    return (long) (batches / perRound) * averagingFrequency + Math.min(averagingFrequency, batches % perRound);
  }

  /** Batch index to slot (worker · k + position within the worker's run) for round {@code round}. */
  public Map<Long, Integer> slots(int round) {
    if (round < 0 || round >= rounds()) {
      throw new IllegalArgumentException("round " + round + " outside 0.." + (rounds() - 1));
    }
    int perRound = workers * averagingFrequency;
    int start = round * perRound;
    int end = Math.min(order.length, start + perRound);
    Map<Long, Integer> slots = new HashMap<>();
    for (int position = start; position < end; position++) {
      slots.put((long) order[position], position - start);
    }
    return slots;
  }
}
