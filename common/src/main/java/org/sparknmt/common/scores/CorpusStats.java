package org.sparknmt.common.scores;

import java.io.Serializable;

/**
 * Everything corpus BLEU and chrF need, summed over lines: the BLEU and chrF statistics of the
 * aligned pairs and how many hypothesis and reference lines were seen, so that a line-count mismatch
 * shows up in the same pass.
 */
public record CorpusStats(long hypLines, long refLines, BleuStats bleu, ChrfStats chrf) implements Serializable {
  /** No lines: the zero of {@link #plus}. */
  public static CorpusStats empty() {
    return new CorpusStats(0, 0, BleuStats.empty(), ChrfStats.empty());
  }

  /** One aligned pair of lines. */
  public static CorpusStats pair(String hyp, String ref) {
    return pair(hyp, ref, new Ngrams());
  }

  /** One aligned pair of lines, counted with {@code ngrams}' tables (one instance per thread). */
  public static CorpusStats pair(String hyp, String ref, Ngrams ngrams) {
    return new CorpusStats(1, 1, BleuStats.of(hyp, ref, ngrams), ChrfStats.of(hyp, ref, ngrams));
  }

  /** A hypothesis line without a reference (or the reverse): counted, not scored. */
  public static CorpusStats unpaired(boolean isHypothesis) {
    return new CorpusStats(isHypothesis ? 1 : 0, isHypothesis ? 0 : 1, BleuStats.empty(), ChrfStats.empty());
  }

  public CorpusStats plus(CorpusStats other) {
    return new CorpusStats(hypLines + other.hypLines, refLines + other.refLines, bleu.plus(other.bleu), chrf.plus(other.chrf));
  }
}
