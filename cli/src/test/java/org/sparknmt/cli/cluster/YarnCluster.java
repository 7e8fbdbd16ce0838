package org.sparknmt.cli.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.sparknmt.base.hdfs.EmbeddedHdfs;
import org.sparknmt.testkit.BuildDirs;

/**
 * A YARN cluster in this JVM: a MiniYARNCluster (ResourceManager and one NodeManager, whose containers
 * are real processes) beside a MiniDFS, on loopback, and what a {@code scripts/sparknmt --master yarn}
 * submission to it needs: a Hadoop configuration folder ({@code HADOOP_CONF_DIR}) and a properties
 * file that is the YARN preset, {@code conf/cluster/spark-yarn.conf}, with its sizes cut to this machine.
 */
final class YarnCluster implements AutoCloseable {
  private static final Duration SUBMIT_TIMEOUT = Duration.ofMinutes(6);

  final Path root;
  final Path dir;
  private final EmbeddedHdfs hdfs;
  private final MiniYARNCluster yarn;
  private final Path hadoopConf;
  private final Path properties;

  private YarnCluster(Path root, Path dir, EmbeddedHdfs hdfs, MiniYARNCluster yarn, Path hadoopConf, Path properties) {
    this.root = root;
    this.dir = dir;
    this.hdfs = hdfs;
    this.yarn = yarn;
    this.hadoopConf = hadoopConf;
    this.properties = properties;
  }

  static YarnCluster start(String name) throws IOException {
    // what YARN books, not what the containers use: the cluster-mode driver's container (4 GB) and two executors
    return start(name, 10240, SMALL_SIZES);
  }

  /** The preset's sizes cut to a 2-core machine (later keys win). */
  private static final List<String> SMALL_SIZES = List.of(
      "spark.executor.instances 2",
      "spark.executor.cores 1",
      "spark.task.cpus 1",
      "spark.executorEnv.OMP_NUM_THREADS 1",
      "spark.executor.memory 768m",
      "spark.executor.memoryOverhead 1g",
      "spark.executor.defaultJavaOptions -Dorg.bytedeco.javacpp.maxbytes=512m -Dorg.bytedeco.javacpp.maxphysicalbytes=0",
      "spark.yarn.am.memory 512m",
      "spark.driver.memoryOverhead 3g",
      "spark.driver.maxResultSize 512m");

  /**
   * A cluster whose NodeManager books {@code nodeManagerMb} for its containers, submitted to with the
   * YARN preset and then {@code sizes} (spark-defaults lines; later keys win).
   */
  static YarnCluster start(String name, int nodeManagerMb, List<String> sizes) throws IOException {
    Path root = LocalCluster.projectRoot();
    Path dir = BuildDirs.fresh(name);
    EmbeddedHdfs hdfs = EmbeddedHdfs.start(dir.resolve("hdfs"), true);
    // MiniYARNCluster keeps its local and log folders under test.build.data
    System.setProperty("test.build.data", dir.resolve("yarn").toString());
    YarnConfiguration conf = new YarnConfiguration();
    conf.set("fs.defaultFS", hdfs.uri().toString());
    // hadoop-client-minicluster has no capacity-scheduler.xml
    conf.set(YarnConfiguration.RM_SCHEDULER,
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler");
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nodeManagerMb);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, Math.max(8192, nodeManagerMb));
    conf.setInt(YarnConfiguration.NM_VCORES, 4);
    // The physical-memory check stays on (a container past its size is killed, as on a real cluster);
    // the virtual one counts a JVM's reserved address space.
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_CONTROL_RESOURCE_MONITORING, true);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, true);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.5f);
    MiniYARNCluster yarn = new MiniYARNCluster(name, 1, 1, 1);
    yarn.init(conf);
    yarn.start();

    Path hadoopConf = Files.createDirectories(dir.resolve("hadoop-conf"));
    try (OutputStream out = Files.newOutputStream(hadoopConf.resolve("yarn-site.xml"))) {
      yarn.getConfig().writeXml(out);
    }
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", hdfs.uri().toString());
    try (OutputStream out = Files.newOutputStream(hadoopConf.resolve("core-site.xml"))) {
      core.writeXml(out);
    }
    Path properties = dir.resolve("spark-yarn.conf");
    Files.writeString(properties, Files.readString(root.resolve("conf/cluster/spark-yarn.conf")) + testOverrides(root, sizes));
    return new YarnCluster(root, dir, hdfs, yarn, hadoopConf, properties);
  }

  /**
   * {@code sizes}, and what a one-host cluster without a Spark installation needs: Spark's jars from
   * this build's classpath, at the same paths in the containers ({@code local:}, nothing uploaded), the
   * JVM, and loopback addresses.
   */
  private static String testOverrides(Path root, List<String> sizes) throws IOException {
    String jars = Stream.of(Files.readString(root.resolve("cli/target/local-classpath.txt")).trim().split(":"))
        .filter(jar -> !jar.contains("/hadoop-client-minicluster-"))
        .map(jar -> "local:" + jar).collect(Collectors.joining(","));
    String javaHome = System.getProperty("java.home");
    return "\n# YarnCluster (tests)\n" + String.join("\n", sizes) + "\n" + String.join("\n",
        "spark.hadoop.dfs.replication 1",
        "spark.yarn.jars " + jars,
        "spark.yarn.appMasterEnv.JAVA_HOME " + javaHome,
        "spark.executorEnv.JAVA_HOME " + javaHome,
        "spark.yarn.appMasterEnv.SPARK_LOCAL_IP 127.0.0.1",
        "spark.executorEnv.SPARK_LOCAL_IP 127.0.0.1", "");
  }

  /** A Hadoop URI string for an absolute {@code path} on the MiniDFS. */
  String hdfsUri(String path) {
    return hdfs.path(path);
  }

  /** The environment of a {@code scripts/sparknmt ... --master yarn} in {@code deployMode} (client or cluster). */
  Map<String, String> launcherEnvironment(String deployMode) {
    return Map.of("HADOOP_CONF_DIR", hadoopConf.toString(), "SPARKNMT_DRIVER_MEMORY", "1g",
        "SPARKNMT_NATIVE_MEMORY", "1g", "SPARKNMT_ND4J_EXTENSION", "", "SPARKNMT_DRIVER_HOST", "127.0.0.1",
        "SPARKNMT_SUBMIT_ARGS", "--properties-file " + properties + " --deploy-mode " + deployMode);
  }

  /** {@code scripts/sparknmt ARGS} with {@code env} (a local run: the same memory caps). */
  ScriptRun sparknmt(Map<String, String> env, String... args) throws IOException, InterruptedException {
    return sparknmt(env, SUBMIT_TIMEOUT, args);
  }

  /** {@code scripts/sparknmt ARGS} with {@code env}, killed and failed after {@code timeout}. */
  ScriptRun sparknmt(Map<String, String> env, Duration timeout, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("scripts/sparknmt"));
    command.addAll(List.of(args));
    return ScriptRun.run(root, dir.resolve("test-logs"), env, timeout, command.toArray(String[]::new));
  }

  /** The launcher's environment for a client-mode submission with the driver's memory left to the launcher's plan. */
  Map<String, String> plannedDriverEnvironment() {
    return Map.of("HADOOP_CONF_DIR", hadoopConf.toString(), "SPARKNMT_ND4J_EXTENSION", "",
        "SPARKNMT_DRIVER_HOST", "127.0.0.1", "SPARKNMT_SUBMIT_ARGS", "--properties-file " + properties + " --deploy-mode client");
  }

  /** The JVMs of this cluster's running executor containers. */
  List<ProcessHandle> executors() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .filter(p -> p.info().commandLine().map(line -> line.contains("CoarseGrainedExecutorBackend")
            && line.contains(dir.toString())).orElse(false))
        .toList();
  }

  /**
   * Everything the containers of this cluster wrote to their stdout and stderr files, concatenated. The
   * NodeManagers' local dirs are skipped: they delete a finished application's files while the walk runs.
   */
  String containerLogs() throws IOException {
    List<Path> logs = new ArrayList<>();
    Files.walkFileTree(dir.resolve("yarn"), new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
        return d.getFileName().toString().contains("-localDir-") ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (file.getFileName().toString().matches("stdout|stderr")) {
          logs.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    StringBuilder all = new StringBuilder();
    for (Path file : logs.stream().sorted().toList()) {
      all.append("== ").append(file).append('\n').append(Files.readString(file));
    }
    return all.toString();
  }

  /**
   * Stops the cluster, and first every process a submission to it left running (a failed test's
   * driver); then deletes the NodeManager's localized copies of the application jar (~250 MB each),
   * keeping the containers' logs for diagnosis.
   */
  @Override
  public void close() throws IOException {
    ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(line -> line.contains(dir.toString())).orElse(false))
        .forEach(ProcessHandle::destroyForcibly);
    yarn.stop();
    hdfs.close();
    try (Stream<Path> files = Files.walk(dir.resolve("yarn"))) {
      for (Path jar : files.filter(f -> f.getFileName().toString().endsWith(".jar")).toList()) {
        Files.delete(jar);
      }
    }
  }
}
