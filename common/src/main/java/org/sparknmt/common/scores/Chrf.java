package org.sparknmt.common.scores;

import java.util.List;

/**
 * Corpus chrF (Popović 2015) as sacreBLEU 2.6.0 computes it by default: character n-grams of order
 * 1..6 without whitespace, no word n-grams, beta = 2. Precision and recall are averaged over the
 * orders present in both hypothesis and reference (sacreBLEU's "effective order"), then combined
 * into F-beta.
 */
public final class Chrf {
  /** The longest character n-gram. */
  public static final int CHAR_ORDER = 6;

  /** Recall weighs beta times as much as precision. */
  public static final int BETA = 2;

  /** sacreBLEU's signature of exactly these settings. */
  public static final String SIGNATURE = "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0";

  private Chrf() {}

  /** The corpus score of aligned hypothesis and reference lines. */
  public static ChrfScore corpus(List<String> hyps, List<String> refs) {
    if (hyps.size() != refs.size()) {
      throw new IllegalArgumentException(hyps.size() + " hypotheses but " + refs.size() + " references");
    }
    ChrfStats stats = ChrfStats.empty();
    for (int i = 0; i < hyps.size(); i++) {
      stats = stats.plus(ChrfStats.of(hyps.get(i), refs.get(i)));
    }
    return score(stats);
  }

  /** The score from summed statistics. */
  public static ChrfScore score(ChrfStats stats) {
    double precision = 0;
    double recall = 0;
    int effectiveOrder = 0;
    for (int n = 1; n <= CHAR_ORDER; n++) {
      if (stats.hyp(n) > 0 && stats.ref(n) > 0) {
        precision += (double) stats.matches(n) / stats.hyp(n);
        recall += (double) stats.matches(n) / stats.ref(n);
        effectiveOrder++;
      }
    }
    if (effectiveOrder == 0) {
      return new ChrfScore(0.0);
    }
    precision /= effectiveOrder;
    recall /= effectiveOrder;
    if (precision + recall == 0) {
      return new ChrfScore(0.0);
    }
    double betaSquared = BETA * BETA;
    double f = (1 + betaSquared) * precision * recall / (betaSquared * precision + recall);
    return new ChrfScore(100 * f);
  }
}
