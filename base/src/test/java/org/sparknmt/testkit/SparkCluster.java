package org.sparknmt.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real Spark context per test class, by default on {@code local-cluster[2,1,1024]}: a master, a
 * worker and two executor JVMs, started for real. The executors get this JVM's classpath, and
 * surefire sets {@code SPARK_HOME} and {@code SPARK_SCALA_VERSION} as local-cluster requires.
 */
public final class SparkCluster implements BeforeAllCallback, AfterAllCallback {
  private final String master;
  private final Map<String, String> settings;
  private JavaSparkContext sc;

  /** Two executor JVMs with one core and 1 GiB each. */
  public SparkCluster() {
    this("local-cluster[2,1,1024]");
  }

  public SparkCluster(String master) {
    this(master, Map.of());
  }

  /** With more Spark settings; a {@code spark.executor.extraJavaOptions} among them adds to the default options. */
  public SparkCluster(String master, Map<String, String> settings) {
    this.master = master;
    this.settings = settings;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Path work = BuildDirs.fresh("spark-" + context.getRequiredTestClass().getSimpleName());
    Files.createDirectories(BuildDirs.root().resolve("spark-home/jars"));
    String buildDir = BuildDirs.root().toString();
    SparkConf conf = new SparkConf()
        .setMaster(master)
        .setAppName(context.getRequiredTestClass().getSimpleName())
        .set("spark.ui.enabled", "false")
        .set("spark.local.dir", work.resolve("local").toString())
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.hadoop.dfs.replication", "1")
        // one ND4J thread per one-core executor; OpenMP's default (all cores) oversubscribes the machine
        .set("spark.executorEnv.OMP_NUM_THREADS", "1")
        .set("spark.executor.extraClassPath", BuildDirs.classpath())
        // the search's vector loops need the Vector API's module in the executors, as the launcher gives it
        .set("spark.executor.extraJavaOptions", "--add-modules=jdk.incubator.vector"
            + " -Djava.io.tmpdir=" + buildDir + "/tmp -Dorg.bytedeco.javacpp.cachedir=" + buildDir + "/javacpp"
                + " -Dlog4j2.configurationFile=" + System.getProperty("log4j2.configurationFile", ""))
        .set("spark.worker.dir", work.resolve("worker").toString())
        // a listener queue left stopped without its stop signal (TrainJob's listener removal on an interrupted
        // thread did that once) makes stop() wait for ever: a minute, and the class's tests end
        .set("spark.scheduler.listenerbus.exitTimeout", "60000");
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      String key = setting.getKey();
      conf.set(key, key.equals("spark.executor.extraJavaOptions") ? conf.get(key) + " " + setting.getValue() : setting.getValue());
    }
    sc = new JavaSparkContext(conf);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (sc != null) {
      sc.stop();
    }
  }

  public JavaSparkContext sc() {
    return sc;
  }
}
