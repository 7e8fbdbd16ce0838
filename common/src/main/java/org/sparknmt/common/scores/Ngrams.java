package org.sparknmt.common.scores;

import java.util.Arrays;

/**
 * Clipped n-gram matches between a hypothesis and a reference, the count both BLEU (over words)
 * and chrF (over characters) are built on: per order n, the hypothesis n-grams, the reference
 * n-grams, and the matches, each distinct n-gram counting min(times in hypothesis, times in
 * reference).
 *
 * <p>Symbols are non-negative ints (word ids, code points). Each n-gram gets an exact integer key
 * from its (n-1)-gram prefix's id and its last symbol, so no n-gram is ever built as a string; the
 * ids are slots of an open-addressing table of those keys, one table per order, so that counting is
 * linear in the line's length. An instance keeps its tables for the next line: one per thread.
 */
public final class Ngrams {
  /** Offsets in the array {@link #clipped} returns: [order - 1][HYP, REF, MATCHES], flattened. */
  public static final int HYP = 0;
  public static final int REF = 1;
  public static final int MATCHES = 2;

  private long[] keys = new long[0];
  /** The table's generation that last wrote a slot: a slot of an older one is empty, so nothing is cleared per order. */
  private int[] written = new int[0];
  /** Hypothesis occurrences of a slot's n-gram not yet matched by a reference occurrence. */
  private int[] unmatched = new int[0];
  private int generation;
  private int[] hypIds = new int[0];
  private int[] refIds = new int[0];

  /** {@code [3 * (n - 1) + HYP | REF | MATCHES]} for n = 1..maxOrder. */
  public static long[] clipped(int[] hyp, int[] ref, int maxOrder) {
    long[] stats = new long[3 * maxOrder];
    new Ngrams().count(hyp, hyp.length, ref, ref.length, maxOrder, stats);
    return stats;
  }

  /**
   * Writes the statistics of the first {@code hypLength} symbols of {@code hyp} against the first
   * {@code refLength} of {@code ref} into {@code stats}, as {@link #clipped} returns them.
   */
  public void count(int[] hyp, int hypLength, int[] ref, int refLength, int maxOrder, long[] stats) {
    long radix = 1L + Math.max(max(hyp, hypLength), max(ref, refLength));
    prepare(hypLength, refLength);
    int mask = keys.length - 1;
    for (int n = 1; n <= maxOrder; n++) {
      int hypCount = Math.max(0, hypLength - n + 1);
      int refCount = Math.max(0, refLength - n + 1);
      nextGeneration();
      for (int i = 0; i < hypCount; i++) {
        int slot = slot(n == 1 ? hyp[i] : hypIds[i] * radix + hyp[i + n - 1], mask);
        unmatched[slot]++;
        hypIds[i] = slot;
      }
      long matches = 0;
      for (int i = 0; i < refCount; i++) {
        int slot = slot(n == 1 ? ref[i] : refIds[i] * radix + ref[i + n - 1], mask);
        if (unmatched[slot] > 0) {
          unmatched[slot]--;
          matches++;
        }
        refIds[i] = slot;
      }
      stats[3 * (n - 1) + HYP] = hypCount;
      stats[3 * (n - 1) + REF] = refCount;
      stats[3 * (n - 1) + MATCHES] = matches;
    }
  }

  /** The slot of {@code key} in this generation's table, claimed (with no occurrences) if the key is new. */
  private int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    int slot = (int) (h ^ (h >>> 32)) & mask;
    while (written[slot] == generation) {
      if (keys[slot] == key) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    written[slot] = generation;
    keys[slot] = key;
    unmatched[slot] = 0;
    return slot;
  }

  /** Tables at most half full for every order of these lengths. */
  private void prepare(int hypLength, int refLength) {
    int capacity = Integer.highestOneBit(Math.max(2, hypLength + refLength)) * 4;
    if (capacity > keys.length) {
      keys = new long[capacity];
      written = new int[capacity];
      unmatched = new int[capacity];
      generation = 0;
    }
    if (hypIds.length < hypLength) {
      hypIds = new int[hypLength];
    }
    if (refIds.length < refLength) {
      refIds = new int[refLength];
    }
  }

  private void nextGeneration() {
    if (generation == Integer.MAX_VALUE) {
      Arrays.fill(written, 0);
      generation = 0;
    }
    generation++;
  }

  private static int max(int[] symbols, int length) {
    int max = 0;
    for (int i = 0; i < length; i++) {
      max = Math.max(max, symbols[i]);
    }
    return max;
  }
}
