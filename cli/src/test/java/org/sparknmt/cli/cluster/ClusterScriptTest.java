package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The guards of {@code scripts/cluster} and of the tests' fault injection ({@code cluster-fault}), none of which
 * starts a JVM: busy ports, foreign PIDs, one daemon's stop/start, usage.
 */
class ClusterScriptTest {

  @Test
  void upRefusesAPortInUseAndStartsNothing() throws Exception {
    LocalCluster cluster = new LocalCluster("cluster-busy-port");
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = busy.getLocalPort();

      ScriptRun up = cluster.cluster("up", Map.of("SPARKNMT_NAMENODE_PORT", Integer.toString(port)));

      assertEquals(1, up.exitCode(), up.output());
      assertTrue(up.output().contains("port " + port + " is in use"), up.output());
      assertTrue(up.output().contains("SPARKNMT_NAMENODE_PORT"), up.output());
      for (String daemon : LocalCluster.DAEMONS) {
        assertTrue(cluster.pid(daemon).isEmpty(), daemon + " got a PID file");
      }
      assertEquals(List.of(), cluster.processesOfThisCluster(), "a process of the cluster runs");
    }
  }

  @Test
  void downNeverSignalsAProcessItDidNotStart() throws Exception {
    LocalCluster cluster = new LocalCluster("cluster-foreign-pid");
    Process stranger = new ProcessBuilder("sleep", "300").start();
    try {
      // A stale PID file whose PID now belongs to another program, as after a reboot.
      Files.createDirectories(cluster.dir.resolve("pids"));
      Files.writeString(cluster.dir.resolve("pids/master.pid"), stranger.pid() + "\n");

      ScriptRun down = cluster.cluster("down").assertSucceeded();

      assertTrue(down.output().contains("nothing running"), down.output());
      Thread.sleep(200);
      assertTrue(stranger.isAlive(), "down signalled a process it did not start");
      assertFalse(Files.exists(cluster.dir.resolve("pids/master.pid")), "the stale PID file stayed");
    } finally {
      stranger.destroyForcibly();
    }
  }

  @Test
  void statusOfAStoppedClusterNamesEveryDaemonAndItsAddress() throws Exception {
    LocalCluster cluster = new LocalCluster("cluster-status");

    ScriptRun status = cluster.cluster("status").assertSucceeded();

    for (String daemon : LocalCluster.DAEMONS) {
      assertTrue(status.output().lines().anyMatch(line -> line.startsWith(daemon + " ") && line.contains("stopped")),
          daemon + " not listed as stopped:\n" + status.output());
    }
    assertTrue(status.output().contains(cluster.masterUrl()), status.output());
    assertTrue(status.output().contains(cluster.hdfsUri("")), status.output());
  }

  @Test
  void stopAndStartOfOneDaemonCheckTheNameAndThatTheClusterIsUp() throws Exception {
    LocalCluster cluster = new LocalCluster("cluster-one-daemon");

    ScriptRun startDown = cluster.daemon("start", "datanode");
    ScriptRun unknown = cluster.daemon("stop", "secondarynamenode");
    ScriptRun stopDown = cluster.daemon("stop", "datanode").assertSucceeded();

    assertEquals(1, startDown.exitCode(), startDown.output());
    assertTrue(startDown.output().contains("not up"), startDown.output());
    assertEquals(1, unknown.exitCode(), unknown.output());
    assertTrue(unknown.output().contains("no daemon 'secondarynamenode'") && unknown.output().contains("datanode"),
        unknown.output());
    assertTrue(stopDown.output().contains("datanode is not running"), stopDown.output());
    assertEquals(List.of(), cluster.processesOfThisCluster(), "a process of the cluster runs");
  }

  @Test
  void unknownCommandIsAUsageError() throws Exception {
    ScriptRun run = new LocalCluster("cluster-usage").cluster("restart");

    assertEquals(2, run.exitCode(), run.output());
    assertTrue(run.output().contains("up|down|status"), run.output());
  }
}
