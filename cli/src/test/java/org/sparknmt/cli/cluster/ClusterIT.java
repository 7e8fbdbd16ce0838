package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 7, the infrastructure half: {@code scripts/cluster up} starts a real standalone Spark
 * cluster and HDFS as daemons on free ports, {@code scripts/sparknmt --master spark://...} submits
 * the fat jar to it writing to {@code hdfs://}, and {@code scripts/cluster down} leaves no process
 * behind. Needs the packaged jars, so it runs in {@code verify} (failsafe).
 */
@Tag("slow")
class ClusterIT {
  private static final int LINES = 2000;

  @Test
  void submitsTheFatJarToTheStandaloneClusterAndWritesToHdfs() throws Exception {
    LocalCluster cluster = new LocalCluster("cluster-it");
    List<Long> daemonPids = new ArrayList<>();
    ScriptRun down;
    try {
      ScriptRun up = cluster.cluster("up").assertSucceeded();
      assertTrue(up.output().contains("up and ready"), up.output());
      for (String daemon : LocalCluster.DAEMONS) {
        long pid = cluster.pid(daemon).orElseThrow(() -> new AssertionError("no PID file for " + daemon));
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), daemon + " (pid " + pid + ") is not running");
        daemonPids.add(pid);
      }
      assertTrue(masterJson(cluster).matches("(?s).*\"aliveworkers\" *: *2\\b.*"), "the master does not count 2 alive workers");
      ScriptRun status = cluster.cluster("status").assertSucceeded();
      for (long pid : daemonPids) {
        assertTrue(status.output().contains(" " + pid + " "), "status does not show pid " + pid + ":\n" + status.output());
      }
      // read from the master's and the NameNode's JSON pages
      assertTrue(status.output().contains("spark: 2 alive worker(s), master ALIVE"), status.output());
      assertTrue(status.output().contains("hdfs:  1 live DataNode(s), state Operational"), status.output());

      String out = cluster.hdfsUri("/smoke/out");
      java.nio.file.Path preset = cluster.root.resolve("conf/cluster/spark-standalone.conf");
      ScriptRun smoke = cluster.sparknmt(Map.of("SPARKNMT_SUBMIT_ARGS", "--properties-file " + preset),
          "smoke", "--master", cluster.masterUrl(), "--out", out, "--lines", Integer.toString(LINES), "--partitions", "4")
          .assertSucceeded();

      assertTrue(smoke.output().contains("from 2 executor JVM(s)"), smoke.output());
      assertTrue(smoke.output().contains("smoke: OK"), smoke.output());
      assertWrittenToHdfs(cluster, out);
      String executorOptions = presetValue(preset, "spark.executor.defaultJavaOptions");
      assertTrue(Files.readString(cluster.dir.resolve("logs/worker-1.log")).contains(executorOptions.split(" ")[0]),
          "the preset's executor options are not in worker-1's executor launch command");
    } finally {
      down = cluster.cluster("down");
    }
    down.assertSucceeded();
    for (long pid : daemonPids) {
      assertTrue(ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), "pid " + pid + " survived down");
    }
    assertEquals(List.of(), cluster.processesOfThisCluster(), "processes of the cluster left after down");
    for (String daemon : LocalCluster.DAEMONS) {
      assertTrue(cluster.pid(daemon).isEmpty(), "down left the PID file of " + daemon);
    }
    cluster.deleteFolder();
  }

  /** Read back with a plain HDFS client, not through the job: every line, one replica each. */
  private static void assertWrittenToHdfs(LocalCluster cluster, String out) throws Exception {
    Configuration conf = new Configuration(false);
    try (FileSystem fs = FileSystem.newInstance(URI.create(cluster.hdfsUri("/")), conf)) {
      assertTrue(fs.exists(new Path(out, "_SUCCESS")), "no _SUCCESS in " + out);
      long lines = 0;
      for (FileStatus part : fs.listStatus(new Path(out), p -> p.getName().startsWith("part-"))) {
        assertEquals(1, part.getReplication(), part.getPath() + " replication");
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
          lines += reader.lines().count();
        }
      }
      assertEquals(LINES, lines, "lines in " + out);
    }
  }

  /** A key of a spark-defaults file, read the way spark-submit reads it. */
  private static String presetValue(java.nio.file.Path preset, String key) throws Exception {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(preset)) {
      properties.load(reader);
    }
    return Optional.ofNullable(properties.getProperty(key)).map(String::trim)
        .orElseThrow(() -> new AssertionError(preset + " has no " + key));
  }

  private static String masterJson(LocalCluster cluster) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.masterUiPort + "/json/")).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
  }
}
