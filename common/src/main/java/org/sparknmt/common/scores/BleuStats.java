package org.sparknmt.common.scores;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * BLEU's sufficient statistics (Papineni et al. 2002, section 2): hypothesis and reference lengths,
 * and per n-gram order the clipped matches and the hypothesis n-grams. Statistics of lines add up to
 * those of the corpus, so they can be computed anywhere and summed.
 */
public final class BleuStats implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long hypLength;
  private final long refLength;
  private final long[] matches;
  private final long[] totals;

  private BleuStats(long hypLength, long refLength, long[] matches, long[] totals) {
    this.hypLength = hypLength;
    this.refLength = refLength;
    this.matches = matches;
    this.totals = totals;
  }

  /** No lines: the zero of {@link #plus}. */
  public static BleuStats empty() {
    return new BleuStats(0, 0, new long[Bleu.MAX_ORDER], new long[Bleu.MAX_ORDER]);
  }

  /** The statistics of one line pair, both tokenized with {@link Tokenizer13a}. */
  public static BleuStats of(String hyp, String ref) {
    return of(hyp, ref, new Ngrams());
  }

  /** {@link #of(String, String)} counting with {@code ngrams}' tables. */
  public static BleuStats of(String hyp, String ref, Ngrams ngrams) {
    return ofTokens(Tokenizer13a.tokenize(hyp), Tokenizer13a.tokenize(ref), ngrams);
  }

  /** The statistics of one pair of already tokenized lines. */
  public static BleuStats ofTokens(List<String> hyp, List<String> ref) {
    return ofTokens(hyp, ref, new Ngrams());
  }

  private static BleuStats ofTokens(List<String> hyp, List<String> ref, Ngrams ngrams) {
    Map<String, Integer> ids = new HashMap<>();
    int[] hypIds = ids(hyp, ids);
    int[] refIds = ids(ref, ids);
    long[] stats = new long[3 * Bleu.MAX_ORDER];
    ngrams.count(hypIds, hypIds.length, refIds, refIds.length, Bleu.MAX_ORDER, stats);
    long[] matches = new long[Bleu.MAX_ORDER];
    long[] totals = new long[Bleu.MAX_ORDER];
    for (int n = 1; n <= Bleu.MAX_ORDER; n++) {
      totals[n - 1] = stats[3 * (n - 1) + Ngrams.HYP];
      matches[n - 1] = stats[3 * (n - 1) + Ngrams.MATCHES];
    }
    return new BleuStats(hyp.size(), ref.size(), matches, totals);
  }

  /** Each token as the id {@code ids} gives it, new tokens getting the next id. */
  private static int[] ids(List<String> tokens, Map<String, Integer> ids) {
    int[] out = new int[tokens.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ids.computeIfAbsent(tokens.get(i), token -> ids.size());
    }
    return out;
  }

  /** The statistics of both sets of lines together. */
  public BleuStats plus(BleuStats other) {
    long[] m = new long[Bleu.MAX_ORDER];
    long[] t = new long[Bleu.MAX_ORDER];
    for (int i = 0; i < Bleu.MAX_ORDER; i++) {
      m[i] = matches[i] + other.matches[i];
      t[i] = totals[i] + other.totals[i];
    }
    return new BleuStats(hypLength + other.hypLength, refLength + other.refLength, m, t);
  }

  /** Hypothesis tokens (sacreBLEU's {@code sys_len}). */
  public long hypLength() {
    return hypLength;
  }

  /** Reference tokens (sacreBLEU's {@code ref_len}). */
  public long refLength() {
    return refLength;
  }

  /** Clipped n-gram matches for n = 1..4 (sacreBLEU's {@code counts}). */
  public long[] matches() {
    return matches.clone();
  }

  /** Hypothesis n-grams for n = 1..4 (sacreBLEU's {@code totals}). */
  public long[] totals() {
    return totals.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BleuStats b && hypLength == b.hypLength && refLength == b.refLength
        && Arrays.equals(matches, b.matches) && Arrays.equals(totals, b.totals);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(hypLength) + 17 * Long.hashCode(refLength) + Arrays.hashCode(matches) + Arrays.hashCode(totals);
  }

  @Override
  public String toString() {
    return "BleuStats[hyp_len=" + hypLength + ", ref_len=" + refLength + ", counts=" + Arrays.toString(matches)
        + ", totals=" + Arrays.toString(totals) + "]";
  }
}
