package org.sparknmt.job.metrics;

import java.util.Arrays;

/**
 * Clipped n-gram matches between a hypothesis and a reference, the count both BLEU (over words)
 * and chrF (over characters) are built on: per order n, the hypothesis n-grams, the reference
 * n-grams, and the matches, each distinct n-gram counting min(times in hypothesis, times in
 * reference).
 *
 * <p>Symbols are non-negative ints (word ids, code points). Each n-gram gets an exact integer id
 * from its (n-1)-gram prefix's id and its last symbol, so no n-gram is ever built as a string.
 */
public final class Ngrams {
  /** Offsets in the array {@link #clipped} returns: [order - 1][HYP, REF, MATCHES], flattened. */
  public static final int HYP = 0;
  public static final int REF = 1;
  public static final int MATCHES = 2;

  private Ngrams() {}

  /** {@code [3 * (n - 1) + HYP | REF | MATCHES]} for n = 1..maxOrder. */
  public static long[] clipped(int[] hyp, int[] ref, int maxOrder) {
    long[] stats = new long[3 * maxOrder];
    long radix = 1L + Math.max(max(hyp), max(ref));
    // hypIds[i]: the id of the n-gram starting at i, for the current n; ids are ranks among the distinct n-grams of both.
    long[] hypIds = new long[hyp.length];
    long[] refIds = new long[ref.length];
    for (int n = 1; n <= maxOrder; n++) {
      int hypCount = Math.max(0, hyp.length - n + 1);
      int refCount = Math.max(0, ref.length - n + 1);
      long[] hypKeys = keys(hypIds, hyp, n, hypCount, radix);
      long[] refKeys = keys(refIds, ref, n, refCount, radix);
      long[] distinct = distinct(hypKeys, refKeys);
      int[] inHyp = new int[distinct.length];
      int[] inRef = new int[distinct.length];
      for (int i = 0; i < hypCount; i++) {
        hypIds[i] = Arrays.binarySearch(distinct, hypKeys[i]);
        inHyp[(int) hypIds[i]]++;
      }
      for (int i = 0; i < refCount; i++) {
        refIds[i] = Arrays.binarySearch(distinct, refKeys[i]);
        inRef[(int) refIds[i]]++;
      }
      long matches = 0;
      for (int k = 0; k < distinct.length; k++) {
        matches += Math.min(inHyp[k], inRef[k]);
      }
      stats[3 * (n - 1) + HYP] = hypCount;
      stats[3 * (n - 1) + REF] = refCount;
      stats[3 * (n - 1) + MATCHES] = matches;
    }
    return stats;
  }

  /** The key of each n-gram: its first symbol for n = 1, else (id of its (n-1)-gram prefix, last symbol). */
  private static long[] keys(long[] prefixIds, int[] symbols, int n, int count, long radix) {
    long[] keys = new long[count];
    for (int i = 0; i < count; i++) {
      keys[i] = n == 1 ? symbols[i] : prefixIds[i] * radix + symbols[i + n - 1];
    }
    return keys;
  }

  private static long[] distinct(long[] a, long[] b) {
    long[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    Arrays.sort(all);
    int size = 0;
    for (int i = 0; i < all.length; i++) {
      if (size == 0 || all[i] != all[size - 1]) {
        all[size++] = all[i];
      }
    }
    return Arrays.copyOf(all, size);
  }

  private static int max(int[] symbols) {
    int max = 0;
    for (int s : symbols) {
      max = Math.max(max, s);
    }
    return max;
  }
}
