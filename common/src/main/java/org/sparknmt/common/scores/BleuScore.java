package org.sparknmt.common.scores;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A corpus BLEU score with what sacreBLEU reports beside it.
 *
 * @param score BLEU in [0, 100]
 * @param counts clipped n-gram matches, n = 1..4
 * @param totals hypothesis n-grams, n = 1..4
 * @param precisions modified n-gram precisions in percent, smoothed
 * @param bp the brevity penalty
 * @param sysLen hypothesis tokens
 * @param refLen reference tokens
 */
public record BleuScore(double score, long[] counts, long[] totals, double[] precisions, double bp, long sysLen, long refLen) {
  public BleuScore {
    counts = counts.clone();
    totals = totals.clone();
    precisions = precisions.clone();
  }

  @Override
  public long[] counts() {
    return counts.clone();
  }

  @Override
  public long[] totals() {
    return totals.clone();
  }

  @Override
  public double[] precisions() {
    return precisions.clone();
  }

  /** Hypothesis over reference length; 0 when the reference is empty. */
  public double ratio() {
    return refLen == 0 ? 0.0 : (double) sysLen / refLen;
  }

  /** sacreBLEU's line: {@code BLEU = 38.02 70.1/45.3/30.9/21.4 (BP = 1.000 ratio = 1.012 hyp_len = 9 ref_len = 9)}. */
  public String format() {
    String precisionText = Arrays.stream(precisions).mapToObj(p -> PythonText.fixed(p, 1)).collect(Collectors.joining("/"));
    return "BLEU = " + PythonText.fixed(score, 2) + " " + precisionText
        + " (BP = " + PythonText.fixed(bp, 3) + " ratio = " + PythonText.fixed(ratio(), 3)
        + " hyp_len = " + sysLen + " ref_len = " + refLen + ")";
  }
}
