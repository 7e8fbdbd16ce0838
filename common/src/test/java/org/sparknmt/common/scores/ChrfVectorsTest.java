package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** chrF against sacreBLEU 2.6.0 on every case of the vector folder, to 0.01. */
class ChrfVectorsTest {
  @TestFactory
  Stream<DynamicTest> matchesSacreBleu() {
    return BleuVector.all().stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
      ChrfScore chrf = Chrf.corpus(v.hyps(), v.refs());
      assertEquals(v.number("chrf"), chrf.score(), 0.01, v.name() + " chrf");
      if (v.expected().has("chrf_line")) {
        assertEquals(v.text("chrf_line"), chrf.format(), v.name() + " printed line");
      }
      assertEquals(v.text("chrf_signature"), Chrf.SIGNATURE, v.name() + " signature");
    }));
  }
}
