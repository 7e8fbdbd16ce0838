package org.sparknmt.evaluate;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.common.scores.BleuVector;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.testkit.SparkCluster;

/**
 * The Spark job against sacreBLEU 2.6.0 on every case of the vector folder, read in place through
 * Hadoop's file:// file system: what executors compute and the driver sums equals sacreBLEU.
 */
class EvaluateJobVectorsTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  @TestFactory
  Stream<DynamicTest> matchesSacreBleu() {
    return BleuVector.all().stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
      Evaluation e = EvaluateJob.run(SPARK.sc(), v.dir().resolve("hyp.txt").toUri().toString(), v.dir().resolve("ref.txt").toUri().toString());
      assertAll(v.name(),
          () -> assertEquals(v.hyps().size(), e.lines(), "lines"),
          () -> assertArrayEquals(v.longs("counts"), e.bleu().counts(), "counts"),
          () -> assertArrayEquals(v.longs("totals"), e.bleu().totals(), "totals"),
          () -> assertEquals(v.number("sys_len"), e.bleu().sysLen(), "sys_len"),
          () -> assertEquals(v.number("ref_len"), e.bleu().refLen(), "ref_len"),
          () -> assertEquals(v.number("bleu"), e.bleu().score(), 0.01, "bleu"),
          () -> assertEquals(v.number("chrf"), e.chrf().score(), 0.01, "chrf"),
          () -> {
            // Only vectors made by scripts/make-bleu-vectors.py record the printed lines.
            if (v.expected().has("bleu_line")) {
              assertEquals(List.of(v.text("bleu_line"), v.text("chrf_line")), e.scoreLines(), "printed lines");
            }
          });
    }));
  }
}
