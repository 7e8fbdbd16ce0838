package org.sparknmt.common.scores;

/**
 * A corpus chrF score.
 *
 * @param score chrF2 in [0, 100]
 */
public record ChrfScore(double score) {
  /** sacreBLEU's name of the metric: chrF with beta 2 and no word n-grams. */
  public static final String NAME = "chrF" + Chrf.BETA;

  /** sacreBLEU's line: {@code chrF2 = 55.10}. */
  public String format() {
    return NAME + " = " + PythonText.fixed(score, 2);
  }
}
