package org.sparknmt.job.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.job.Main;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.MiniHdfs;
import picocli.CommandLine;

/** One writer per run: a second one fails at once naming the holder; stale and broken locks. */
class RunLockTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();

  /** A Hadoop client of its own, as a second process would have: its own HDFS lease holder. */
  private static Configuration ownClient() {
    Configuration conf = new Configuration();
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    return conf;
  }

  @Test
  void onHdfsASecondWriterFailsAtOnceNamingTheHolderAndGetsTheLockWhenItIsReleased() throws IOException {
    String run = HDFS.path("/locked-run");
    RunLock first = RunLock.acquire(run, "train", false, ownClient());
    long start = System.nanoTime();
    RunLock.Held held = assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, ownClient()));
    double seconds = (System.nanoTime() - start) / 1e9;
    RunLock.Holder holder = first.holder();
    assertEquals(run + "/.lock is held by sparknmt train on host " + holder.host() + ", pid " + holder.pid() + ", started "
        + holder.started() + " (its HDFS lease is live: the holder's client renewed it within the last minute): only one "
        + "prepare, train or average may write to a run at a time. Wait for it to finish, or if it no longer runs "
        + "(killed on another host), rerun with --break-lock", held.getMessage());
    assertTrue(seconds < 5, "took " + seconds + " s");

    first.close();
    FileSystem fs = new Path(run).getFileSystem(new Configuration());
    assertFalse(fs.exists(new Path(run, RunLock.FILE)), "released");
    RunLock.acquire(run, "average", false, ownClient()).close();
  }

  @Test
  void aHolderOnAnotherHostWhoseClientStoppedRenewingIsNamedAsProbablyGone() throws Exception {
    String run = HDFS.path("/expired-run");
    Path file = new Path(run, RunLock.FILE);
    DistributedFileSystem elsewhere = (DistributedFileSystem) file.getFileSystem(ownClient());
    RunLock.Holder holder = new RunLock.Holder("far", "other-host", 4242, Instant.now().toString(), "train");
    FSDataOutputStream out = elsewhere.create(file, false);
    out.write(new ObjectMapper().writeValueAsBytes(holder));
    out.hflush();
    MiniDFSCluster cluster = HDFS.hdfs().cluster();
    cluster.setLeasePeriod(1000, HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_DEFAULT * 1000);
    try {
      // the holder's process dies: its client stops renewing the lease, the file stays open
      elsewhere.getClient().closeAllFilesBeingWritten(true);
      Thread.sleep(2000);
      RunLock.Held held = assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, ownClient()));
      assertTrue(held.getMessage().contains("is held by sparknmt train on host other-host, pid 4242, started "
          + holder.started() + " (its HDFS lease has expired: the holder's client has not renewed it for over a minute; "
          + "it is probably gone)"), held.getMessage());
    } finally {
      cluster.setLeasePeriod(HdfsConstants.LEASE_SOFTLIMIT_PERIOD, HdfsClientConfigKeys.DFS_LEASE_HARDLIMIT_DEFAULT * 1000);
    }
    RunLock.acquire(run, "train", true, ownClient()).close();
  }

  @Test
  void breakLockTakesTheLockAndTheFormerHolderLeavesItAlone() throws IOException {
    String run = HDFS.path("/broken-run");
    RunLock first = RunLock.acquire(run, "train", false, ownClient());
    RunLock second = RunLock.acquire(run, "train", true, ownClient());
    first.close();
    RunLock.Held held = assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "prepare", false, ownClient()));
    assertTrue(held.getMessage().contains("started " + second.holder().started()), held.getMessage());
    second.close();
    RunLock.acquire(run, "prepare", false, ownClient()).close();
  }

  @Test
  void aLockWhoseProcessOnThisHostHasEndedIsTakenOver() throws Exception {
    java.nio.file.Path run = BuildDirs.fresh("stale-lock");
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    RunLock.Holder dead = new RunLock.Holder("old", InetAddress.getLocalHost().getHostName(), ended.pid(),
        Instant.now().minusSeconds(60).toString(), "train");
    Files.write(run.resolve(RunLock.FILE), new ObjectMapper().writeValueAsBytes(dead));

    try (RunLock lock = RunLock.acquire(run.toUri().toString(), "train", false, new Configuration())) {
      assertEquals(ProcessHandle.current().pid(), lock.holder().pid());
      RunLock.Held held = assertThrows(RunLock.Held.class,
          () -> RunLock.acquire(run.toUri().toString(), "train", false, new Configuration()));
      assertTrue(held.getMessage().contains("pid " + ProcessHandle.current().pid()), held.getMessage());
    }
    assertFalse(Files.exists(run.resolve(RunLock.FILE)));
  }

  @Test
  void everyWritingCommandExitsOneAtOnceWhileAnotherHoldsTheRun() throws IOException {
    String run = BuildDirs.fresh("locked-commands").toUri().toString();
    try (RunLock holder = RunLock.acquire(run, "train", false, new Configuration())) {
      for (String[] args : new String[][] {
          {"train", "--run", run, "--master", "local[1]"},
          {"prepare", "--src", "a.en", "--tgt", "a.de", "--run", run, "--master", "local[1]"},
          {"average", "--run", run}}) {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err));
        long start = System.nanoTime();
        int code = cli.execute(args);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(1, code, args[0] + ": " + err);
        assertTrue(err.toString().startsWith("sparknmt " + args[0] + ": " + holder.file() + " is held by sparknmt train on host "),
            err.toString());
        assertTrue(seconds < 5, args[0] + " took " + seconds + " s");
      }
    }
  }
}
