package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Corpus chrF on cases small enough to compute by hand. */
class ChrfTest {
  @Test
  void perfectMatchIs100() {
    assertEquals(100.0, Chrf.corpus(List.of("Das Haus ist groß."), List.of("Das Haus ist groß.")).score(), 1e-12);
  }

  @Test
  void whitespaceIsIgnored() {
    assertEquals(100.0, Chrf.corpus(List.of("a b\u00a0c"), List.of("abc")).score(), 1e-12);
  }

  @Test
  void noOverlapIsZero() {
    ChrfScore chrf = Chrf.corpus(List.of("xyz"), List.of("abc"));
    assertEquals(0.0, chrf.score());
    assertEquals("chrF2 = 0.00", chrf.format());
  }

  @Test
  void emptyHypothesisIsZero() {
    assertEquals(0.0, Chrf.corpus(List.of(""), List.of("abc")).score());
  }

  @Test
  void averagesOnlyOrdersPresentInBoth() {
    // "ab" vs "abc": order 1 P = 2/2, R = 2/3; order 2 P = 1/1, R = 1/2; order 3 has no hypothesis n-gram.
    // P = 1, R = 7/12, F2 = 5PR / (4P + R) = 35/55.
    ChrfScore chrf = Chrf.corpus(List.of("ab"), List.of("abc"));
    assertEquals(100.0 * 35 / 55, chrf.score(), 1e-12);
    assertEquals("chrF2 = 63.64", chrf.format());
  }

  @Test
  void hypothesisNgramsOfAnOrderTheReferenceLacksAreNotCounted() {
    // "abc" vs "ab": the reference has no 3-gram, so the hypothesis's "abc" counts nowhere.
    ChrfStats stats = ChrfStats.of("abc", "ab");
    assertEquals(0, stats.hyp(3));
    assertEquals(0, stats.ref(3));
    assertEquals(2, stats.hyp(2));
    // Order 1: P = 2/3, R = 1; order 2: P = 1/2, R = 1. P = 7/12, R = 1, F2 = 5PR / (4P + R) = 0.875.
    assertEquals(87.5, Chrf.score(stats).score(), 1e-12);
  }

  @Test
  void charactersAreCodePoints() {
    // One emoji is one character: the 1-gram matches, nothing is split inside the surrogate pair.
    ChrfStats stats = ChrfStats.of("😀", "😀x");
    assertEquals(1, stats.hyp(1));
    assertEquals(1, stats.matches(1));
    assertEquals(0, stats.hyp(2));
  }

  @Test
  void unequalLineCountsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> Chrf.corpus(List.of("a", "b"), List.of("a")));
  }
}
