package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** BLEU against sacreBLEU 2.6.0 on every case of the vector folder: counts exact, scores to 0.01. */
class BleuVectorsTest {
  @TestFactory
  Stream<DynamicTest> matchesSacreBleu() {
    return BleuVector.all().stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
      BleuScore bleu = Bleu.corpus(v.hyps(), v.refs());
      assertAll(v.name(),
          () -> assertArrayEquals(v.longs("counts"), bleu.counts(), "counts"),
          () -> assertArrayEquals(v.longs("totals"), bleu.totals(), "totals"),
          () -> assertEquals(v.number("sys_len"), bleu.sysLen(), "sys_len"),
          () -> assertEquals(v.number("ref_len"), bleu.refLen(), "ref_len"),
          () -> assertEquals(v.number("bp"), bleu.bp(), 1e-5, "bp"),
          () -> {
            for (int n = 0; n < Bleu.MAX_ORDER; n++) {
              assertEquals(v.expected().get("precisions").get(n).asDouble(), bleu.precisions()[n], 0.01, "precision " + (n + 1));
            }
          },
          () -> assertEquals(v.number("bleu"), bleu.score(), 0.01, "bleu"),
          () -> assertEquals(v.text("bleu_signature"), Bleu.SIGNATURE, "signature"),
          () -> {
            // Only vectors made by scripts/make-bleu-vectors.py record the printed line.
            if (v.expected().has("bleu_line")) {
              assertEquals(v.text("bleu_line"), bleu.format(), "printed line");
            }
          });
    }));
  }
}
