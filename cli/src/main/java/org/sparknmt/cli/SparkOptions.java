package org.sparknmt.cli;

import org.apache.spark.SparkConf;
import picocli.CommandLine.Option;

/**
 * {@code --master URL}: where a job runs. Absent, the job takes {@code spark.master} from
 * {@code spark-submit} or, in a plain JVM, runs in local mode on every core.
 */
public final class SparkOptions {
  @Option(names = "--master", paramLabel = "URL",
      description = "Spark master: local[N], local-cluster[W,C,MB], spark://HOST:PORT, yarn, k8s://... Default: spark-submit's, else local[*].")
  String master;

  /** The Spark configuration for a job named {@code appName}. */
  public SparkConf sparkConf(String appName) {
    SparkConf conf = new SparkConf().setAppName(appName);
    if (master != null) {
      conf.setMaster(master);
    } else if (!conf.contains("spark.master")) {
      conf.setMaster("local[*]");
    }
    String buildTmp = System.getProperty("java.io.tmpdir");
    conf.setIfMissing("spark.local.dir", buildTmp + "/spark-local");
    if (conf.get("spark.master").startsWith("local")) {
      // the embedded HDFS and development clusters have one DataNode; a real cluster keeps its own default
      conf.setIfMissing("spark.hadoop.dfs.replication", "1");
    }
    conf.setIfMissing("spark.ui.showConsoleProgress", "false");
    // ND4J's native threads per executor: one per task slot; more only fight over the same cores
    conf.setIfMissing("spark.executorEnv.OMP_NUM_THREADS", conf.get("spark.executor.cores", "1"));
    return conf;
  }

  public String master() {
    return master;
  }
}
