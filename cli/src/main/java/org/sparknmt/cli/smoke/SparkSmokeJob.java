package org.sparknmt.cli.smoke;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Proves a deployment end to end before real work: executors start, run an ND4J native op, write
 * to a Hadoop URI, and the driver reads every line back.
 */
public final class SparkSmokeJob {
  /** What came back: lines written and read, distinct executor JVMs seen, and the ND4J result checked. */
  public record Result(long written, long read, long executorJvms, boolean nd4jCorrect) {
    public boolean ok() {
      return written == read && nd4jCorrect;
    }
  }

  private SparkSmokeJob() {}

  /** Writes {@code lines} lines over {@code partitions} partitions to {@code outUri} (which must not exist) and reads them back. */
  public static Result run(JavaSparkContext sc, String outUri, int lines, int partitions) {
    sc.setJobGroup("smoke", "sparknmt smoke: ND4J on executors, write and read " + outUri, false);
    List<Integer> numbers = IntStream.range(0, lines).boxed().toList();
    JavaRDD<String> written = sc.parallelize(numbers, partitions).mapPartitions(SparkSmokeJob::onExecutor);
    written.saveAsTextFile(outUri);
    JavaRDD<String> read = sc.textFile(outUri);
    long count = read.count();
    long jvms = read.map(line -> line.split("\t")[1]).distinct().count();
    boolean nd4j = read.filter(line -> !line.split("\t")[2].equals(expectedNd4j())).isEmpty();
    return new Result(lines, count, jvms, nd4j);
  }

  /** One line per number: {@code number, executor JVM pid, ND4J result}. */
  private static Iterator<String> onExecutor(Iterator<Integer> numbers) {
    String pid = Long.toString(ProcessHandle.current().pid());
    String nd4j = nd4jResult();
    List<String> out = new ArrayList<>();
    numbers.forEachRemaining(n -> out.add(n + "\t" + pid + "\t" + nd4j));
    return out.iterator();
  }

  /** A native GEMM: ones(8x8) times ones(8x8) sums to 8^3. */
  private static String nd4jResult() {
    INDArray ones = Nd4j.ones(8, 8);
    return Long.toString(ones.mmul(ones).sumNumber().longValue());
  }

  private static String expectedNd4j() {
    return "512";
  }
}
