package org.sparknmt.common.scores;

import java.io.Serializable;
import java.util.Arrays;

/**
 * chrF's sufficient statistics (Popović 2015): per character n-gram order 1..6, the hypothesis
 * n-grams, the reference n-grams and their clipped matches. Whitespace is removed before n-grams are
 * taken, as sacreBLEU does by default. Statistics of lines add up to those of the corpus.
 */
public final class ChrfStats implements Serializable {
  private static final long serialVersionUID = 1L;

  /** [order - 1][hyp, ref, match], flattened as {@link Ngrams#clipped} gives them. */
  private final long[] counts;

  private ChrfStats(long[] counts) {
    this.counts = counts;
  }

  /** No lines: the zero of {@link #plus}. */
  public static ChrfStats empty() {
    return new ChrfStats(new long[3 * Chrf.CHAR_ORDER]);
  }

  /** The statistics of one line pair. */
  public static ChrfStats of(String hyp, String ref) {
    return of(hyp, ref, new Ngrams());
  }

  /** {@link #of(String, String)} counting with {@code ngrams}' tables. */
  public static ChrfStats of(String hyp, String ref, Ngrams ngrams) {
    int[] hypChars = PythonText.codePointsWithoutSpaces(hyp);
    int[] refChars = PythonText.codePointsWithoutSpaces(ref);
    long[] counts = new long[3 * Chrf.CHAR_ORDER];
    ngrams.count(hypChars, hypChars.length, refChars, refChars.length, Chrf.CHAR_ORDER, counts);
    for (int n = 1; n <= Chrf.CHAR_ORDER; n++) {
      // sacreBLEU counts no hypothesis n-grams of an order the reference is too short to have.
      if (counts[3 * (n - 1) + Ngrams.REF] == 0) {
        counts[3 * (n - 1) + Ngrams.HYP] = 0;
      }
    }
    return new ChrfStats(counts);
  }

  /** The statistics of both sets of lines together. */
  public ChrfStats plus(ChrfStats other) {
    long[] sum = new long[counts.length];
    for (int i = 0; i < sum.length; i++) {
      sum[i] = counts[i] + other.counts[i];
    }
    return new ChrfStats(sum);
  }

  /** Hypothesis character n-grams of order {@code n}. */
  public long hyp(int n) {
    return counts[3 * (n - 1)];
  }

  /** Reference character n-grams of order {@code n}. */
  public long ref(int n) {
    return counts[3 * (n - 1) + 1];
  }

  /** Clipped matches of order {@code n}. */
  public long matches(int n) {
    return counts[3 * (n - 1) + 2];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChrfStats c && Arrays.equals(counts, c.counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    return "ChrfStats" + Arrays.toString(counts);
  }
}
