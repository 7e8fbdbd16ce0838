package org.sparknmt.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.hdfs.EmbeddedHdfs;
import org.sparknmt.cli.smoke.SparkSmokeJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt smoke}: checks that Spark, HDFS and the ND4J native backend work together. With
 * no {@code --out}, starts an in-process HDFS under {@code --work} and writes there.
 */
@Command(name = "smoke", mixinStandardHelpOptions = true,
    description = "Check a deployment: a Spark job runs ND4J on the executors, writes to a Hadoop URI and reads it back.")
public final class SmokeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(SmokeCommand.class);

  @Mixin SparkOptions spark;

  @Option(names = "--out", paramLabel = "URI", description = "Where to write (must not exist), e.g. hdfs://namenode:9000/tmp/smoke. Default: an embedded HDFS.")
  String out;

  @Option(names = "--work", paramLabel = "DIR", defaultValue = "runs/embedded-hdfs",
      description = "Storage of the embedded HDFS when --out is not given. Default: ${DEFAULT-VALUE}.")
  Path work;

  @Option(names = "--lines", defaultValue = "1000", description = "Lines to write. Default: ${DEFAULT-VALUE}.")
  int lines;

  @Option(names = "--partitions", defaultValue = "4", description = "Partitions to write them from. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Override
  public Integer call() throws Exception {
    if (lines <= 0 || partitions <= 0) {
      throw new UsageException("--lines and --partitions must be positive");
    }
    if (out != null) {
      return report(runOn(out));
    }
    LOG.info("starting an embedded HDFS under {}", work.toAbsolutePath());
    try (EmbeddedHdfs hdfs = EmbeddedHdfs.start(work, true)) {
      return report(runOn(hdfs.path("/sparknmt/smoke-" + System.currentTimeMillis())));
    }
  }

  private SparkSmokeJob.Result runOn(String uri) {
    try (JavaSparkContext sc = new JavaSparkContext(spark.sparkConf("sparknmt smoke"))) {
      LOG.info("master {}, writing {}", sc.master(), uri);
      SparkSmokeJob.Result result = SparkSmokeJob.run(sc, uri, lines, partitions);
      System.out.printf("smoke: wrote %d lines to %s, read back %d, from %d executor JVM(s), ND4J on executors %s%n",
          result.written(), uri, result.read(), result.executorJvms(), result.nd4jCorrect() ? "ok" : "WRONG");
      return result;
    }
  }

  private static int report(SparkSmokeJob.Result result) {
    System.out.println(result.ok() ? "smoke: OK" : "smoke: FAILED");
    return result.ok() ? 0 : 1;
  }
}
