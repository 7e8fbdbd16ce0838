package org.sparknmt.common.scores;

import java.util.List;

/**
 * Corpus BLEU (Papineni et al. 2002, section 2.3) as sacreBLEU 2.6.0 computes it by default: one
 * reference, 13a tokens, case kept, n-grams up to 4, the geometric mean of the modified precisions
 * times the brevity penalty, and mteval's "exp" smoothing of zero matches.
 */
public final class Bleu {
  /** The longest n-gram counted. */
  public static final int MAX_ORDER = 4;

  /** sacreBLEU's signature of exactly these settings. */
  public static final String SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0";

  /** sacreBLEU's floor for log(0), so that a zero precision gives a score of (practically) zero. */
  private static final double LOG_ZERO = -9999999999.0;

  private Bleu() {}

  /** The corpus score of aligned hypothesis and reference lines. */
  public static BleuScore corpus(List<String> hyps, List<String> refs) {
    if (hyps.size() != refs.size()) {
      throw new IllegalArgumentException(hyps.size() + " hypotheses but " + refs.size() + " references");
    }
    BleuStats stats = BleuStats.empty();
    for (int i = 0; i < hyps.size(); i++) {
      stats = stats.plus(BleuStats.of(hyps.get(i), refs.get(i)));
    }
    return score(stats);
  }

  /** The score from summed statistics. */
  public static BleuScore score(BleuStats stats) {
    long hypLength = stats.hypLength();
    long refLength = stats.refLength();
    long[] matches = stats.matches();
    long[] totals = stats.totals();
    double bp = brevityPenalty(hypLength, refLength);
    double[] precisions = new double[MAX_ORDER];
    boolean anyMatch = false;
    for (long m : matches) {
      anyMatch |= m > 0;
    }
    if (!anyMatch) {
      return new BleuScore(0.0, matches, totals, precisions, bp, hypLength, refLength);
    }
    // Exp smoothing (Chen & Cherry 2014, method 3): the k-th order without a match gets 1 / (2^k * total).
    double smooth = 1.0;
    for (int n = 0; n < MAX_ORDER && totals[n] > 0; n++) {
      if (matches[n] == 0) {
        smooth *= 2;
        precisions[n] = 100.0 / (smooth * totals[n]);
      } else {
        precisions[n] = 100.0 * matches[n] / totals[n];
      }
    }
    double logSum = 0;
    for (double p : precisions) {
      logSum += p == 0.0 ? LOG_ZERO : Math.log(p);
    }
    return new BleuScore(bp * Math.exp(logSum / MAX_ORDER), matches, totals, precisions, bp, hypLength, refLength);
  }

  /** BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis. */
  static double brevityPenalty(long hypLength, long refLength) {
    if (hypLength >= refLength) {
      return 1.0;
    }
    return hypLength > 0 ? Math.exp(1 - (double) refLength / hypLength) : 0.0;
  }
}
