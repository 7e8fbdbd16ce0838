package org.sparknmt.cli.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;

/** Spark on two executor JVMs, a real HDFS and ND4J's native backend, working together. */
class ClusterSmokeTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  @Test
  void executorsRunNd4jAndRoundTripThroughHdfs() throws Exception {
    String out = HDFS.path("/smoke/out");

    SparkSmokeJob.Result result = SparkSmokeJob.run(SPARK.sc(), out, 500, 4);

    assertEquals(500, result.written());
    assertEquals(500, result.read());
    assertTrue(result.nd4jCorrect(), "ND4J GEMM on the executors gave a wrong result");
    assertEquals(2, result.executorJvms(), "expected work on both executor JVMs");
    FileSystem fs = FileSystem.get(HDFS.hdfs().uri(), SPARK.sc().hadoopConfiguration());
    assertTrue(fs.exists(new Path(out, "_SUCCESS")), "no _SUCCESS marker on hdfs");
  }

  @Test
  void executorsAreOtherJvmsThanTheDriver() {
    long driver = ProcessHandle.current().pid();
    List<Long> pids = SPARK.sc().parallelize(List.of(1, 2, 3, 4), 4)
        .map(i -> ProcessHandle.current().pid()).distinct().collect();
    assertEquals(2, pids.size());
    assertTrue(pids.stream().noneMatch(pid -> pid == driver), "a task ran in the driver JVM");
  }
}
