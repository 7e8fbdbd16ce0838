package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.testkit.SparkCluster;

/** The line ranges a translation spreads over the cores: the input's splits, or more where they are too few. */
class TranslatePartitionsTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");
  private static final List<String> LINES = IntStream.range(0, 25).mapToObj(i -> "line " + i).toList();

  @Test
  void oneSplitIsSpreadOverTheDefaultParallelismInOrder() {
    JavaRDD<String> ranges = TranslateJob.partitioned(SPARK.sc().parallelize(LINES, 1), 0);
    assertEquals(2, ranges.getNumPartitions());
    assertEquals(LINES, ranges.collect());
  }

  @Test
  void enoughSplitsAreKept() {
    JavaRDD<String> lines = SPARK.sc().parallelize(LINES, 4);
    assertSame(lines, TranslateJob.partitioned(lines, 0));
  }

  @Test
  void aGivenNumberOfRangesIsKeptToo() {
    JavaRDD<String> ranges = TranslateJob.partitioned(SPARK.sc().parallelize(LINES, 4), 3);
    assertEquals(3, ranges.getNumPartitions());
    assertEquals(LINES, ranges.collect());
  }
}
