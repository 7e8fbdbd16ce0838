package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Corpus BLEU on cases small enough to compute by hand. */
class BleuTest {
  @Test
  void perfectMatchIs100() {
    BleuScore bleu = Bleu.corpus(List.of("the cat sat on the mat ."), List.of("the cat sat on the mat ."));
    assertEquals(100.0, bleu.score(), 1e-12);
    assertEquals(1.0, bleu.bp());
    assertArrayEquals(new long[] {7, 6, 5, 4}, bleu.counts());
  }

  @Test
  void noOverlapIsZero() {
    BleuScore bleu = Bleu.corpus(List.of("x y z w", "q r"), List.of("a b c d", "e f"));
    assertEquals(0.0, bleu.score());
    assertArrayEquals(new long[] {0, 0, 0, 0}, bleu.counts());
    assertArrayEquals(new long[] {6, 4, 2, 1}, bleu.totals());
    assertArrayEquals(new double[] {0, 0, 0, 0}, bleu.precisions());
  }

  @Test
  void expSmoothingHalvesEachFurtherZeroOrder() {
    // 1-grams 4/5, 2-grams {ab, de}/4, 3-grams 0/3 -> 1/(2*3), 4-grams 0/2 -> 1/(4*2); equal lengths, BP = 1.
    BleuScore bleu = Bleu.corpus(List.of("a b c d e"), List.of("a b x d e"));
    assertArrayEquals(new double[] {80.0, 50.0, 100.0 / 6, 12.5}, bleu.precisions(), 1e-12);
    assertEquals(Math.pow(80.0 * 50.0 * (100.0 / 6) * 12.5, 0.25), bleu.score(), 1e-9);
    assertEquals("BLEU = 30.21 80.0/50.0/16.7/12.5 (BP = 1.000 ratio = 1.000 hyp_len = 5 ref_len = 5)", bleu.format());
  }

  @Test
  void brevityPenaltyForShortHypotheses() {
    // 4 tokens against 8: BP = exp(1 - 8/4) = e^-1; every n-gram of the hypothesis matches.
    BleuScore bleu = Bleu.corpus(List.of("a b c d"), List.of("a b c d e f g h"));
    assertEquals(Math.exp(-1), bleu.bp(), 1e-12);
    assertEquals(100 * Math.exp(-1), bleu.score(), 1e-9);
    assertEquals(0.5, bleu.ratio());
  }

  @Test
  void emptyHypothesesScoreZero() {
    BleuScore bleu = Bleu.corpus(List.of("", ""), List.of("a b", "c"));
    assertEquals(0.0, bleu.score());
    assertEquals(0.0, bleu.bp());
    assertEquals("BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 0.000 ratio = 0.000 hyp_len = 0 ref_len = 3)", bleu.format());
  }

  @Test
  void missingHigherOrdersZeroTheScoreDespiteUnigramMatches() {
    // One-token lines have no 2-grams: sacreBLEU stops at the first empty order and takes log(0) for the rest.
    BleuScore bleu = Bleu.corpus(List.of("a", "b", "c"), List.of("a", "b", "d"));
    assertArrayEquals(new long[] {2, 0, 0, 0}, bleu.counts());
    assertEquals(0.0, bleu.score(), 1e-300);
  }

  @Test
  void lineStatisticsSumToTheCorpus() {
    List<String> hyps = List.of("the cat sat .", "", "a dog , at 5.30 pm !");
    List<String> refs = List.of("the cat sat on the mat .", "an empty one", "the dog barks at 5.30 pm .");
    BleuStats summed = BleuStats.empty();
    for (int i = hyps.size() - 1; i >= 0; i--) {
      summed = BleuStats.of(hyps.get(i), refs.get(i)).plus(summed);
    }
    BleuScore fromSum = Bleu.score(summed);
    BleuScore corpus = Bleu.corpus(hyps, refs);
    assertEquals(corpus.score(), fromSum.score());
    assertArrayEquals(corpus.counts(), fromSum.counts());
    assertEquals(summed.hypLength(), corpus.sysLen());
  }

  @Test
  void unequalLineCountsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> Bleu.corpus(List.of("a"), List.of("a", "b")));
  }
}
