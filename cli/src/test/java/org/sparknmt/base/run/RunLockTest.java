package org.sparknmt.base.run;

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
import org.sparknmt.cli.Main;
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
    assertFalse(fs.exists(new Path(run, RunLayout.LOCK)), "released");
    RunLock.acquire(run, "average", false, ownClient()).close();
  }

  @Test
  void aHolderOnAnotherHostWhoseClientStoppedRenewingIsNamedAsProbablyGone() throws Exception {
    String run = HDFS.path("/expired-run");
    Path file = new Path(run, RunLayout.LOCK);
    DistributedFileSystem elsewhere = (DistributedFileSystem) file.getFileSystem(ownClient());
    RunLock.Holder holder = new RunLock.Holder("far", "other-host", 4242, Instant.now().toString(), "train", null, 0);
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
        Instant.now().minusSeconds(60).toString(), "train", null, 0);
    Files.write(run.resolve(RunLayout.LOCK), new ObjectMapper().writeValueAsBytes(dead));

    try (RunLock lock = RunLock.acquire(run.toUri().toString(), "train", false, new Configuration())) {
      assertEquals(ProcessHandle.current().pid(), lock.holder().pid());
      RunLock.Held held = assertThrows(RunLock.Held.class,
          () -> RunLock.acquire(run.toUri().toString(), "train", false, new Configuration()));
      assertTrue(held.getMessage().contains("pid " + ProcessHandle.current().pid()), held.getMessage());
    }
    assertFalse(Files.exists(run.resolve(RunLayout.LOCK)));
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
        // "at once": no waiting for the holder; the bound leaves room for class loading on a loaded host
        assertTrue(seconds < 30, args[0] + " took " + seconds + " s");
      }
    }
  }

  /**
   * A live holder whose pid this process cannot see (hidepid, another container with the same host name,
   * a clock step) was judged dead and its lock deleted: locally the holder's OS lock now says it lives.
   */
  @Test
  void aLiveHolderInAnotherProcessIsNeverTakenOverWhateverItsFileSays() throws Exception {
    java.nio.file.Path run = BuildDirs.fresh("live-lock");
    String javaCommand = ProcessHandle.current().info().command().orElse("java");
    Process holder = new ProcessBuilder(javaCommand, "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
        run.toUri().toString()).redirectErrorStream(true).start();
    try {
      java.io.BufferedReader out = new java.io.BufferedReader(
          new java.io.InputStreamReader(holder.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      for (String line = out.readLine(); line != null && !line.startsWith("held "); line = out.readLine()) {
        // the child's log lines before it holds the lock
      }
      assertTrue(holder.isAlive());
      // the file claims a process that has ended, as a pid hidden from this process would look
      Process ended = new ProcessBuilder("true").start();
      ended.waitFor();
      RunLock.Holder claimed = new RunLock.Holder("hidden", InetAddress.getLocalHost().getHostName(), ended.pid(),
          Instant.now().minusSeconds(60).toString(), "train", null, 0);
      Files.write(run.resolve(RunLayout.LOCK), new ObjectMapper().writeValueAsBytes(claimed));
      RunLock.Held held = assertThrows(RunLock.Held.class,
          () -> RunLock.acquire(run.toUri().toString(), "train", false, new Configuration()));
      assertTrue(held.getMessage().contains("pid " + ended.pid()), held.getMessage());
      assertTrue(Files.exists(run.resolve(RunLayout.LOCK)), "the live holder's lock file was deleted");
    } finally {
      holder.destroyForcibly().waitFor();
    }
    // killed: the kernel released its lock, and the next writer takes the file over
    try (RunLock lock = RunLock.acquire(run.toUri().toString(), "train", false, new Configuration())) {
      assertEquals(ProcessHandle.current().pid(), lock.holder().pid());
    }
    assertFalse(Files.exists(run.resolve(RunLayout.LOCK)));
  }

  @Test
  void onHdfsOnlyAHolderProvablyGoneIsTakenOverAndItsFileKeptAsideUntilRelease() throws Exception {
    String run = HDFS.path("/stale-run");
    Path file = new Path(run, RunLayout.LOCK);
    FileSystem fs = file.getFileSystem(ownClient());
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    String host = InetAddress.getLocalHost().getHostName();
    String namespace = Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/pid")).toString();
    long ticks = org.sparknmt.base.files.WriterProcess.processStartTicks(ProcessHandle.current().pid()).orElseThrow();
    // a name that did not resolve ("unknown" on both sides), another container, or no start ticks prove nothing
    for (RunLock.Holder unproven : new RunLock.Holder[] {
        new RunLock.Holder("a", "unknown", ended.pid(), Instant.now().toString(), "train", namespace, ticks),
        new RunLock.Holder("b", host, ended.pid(), Instant.now().toString(), "train", "pid:[1]", ticks),
        new RunLock.Holder("c", host, ended.pid(), Instant.now().toString(), "train", namespace, 0)}) {
      try (FSDataOutputStream out = fs.create(file, true)) {
        out.write(new ObjectMapper().writeValueAsBytes(unproven));
      }
      assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, ownClient()), unproven.toString());
    }
    // this very process, still running, with its real start: alive, whatever its host
    RunLock.Holder alive = new RunLock.Holder("d", host, ProcessHandle.current().pid(), Instant.now().toString(), "train",
        namespace, ticks);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(new ObjectMapper().writeValueAsBytes(alive));
    }
    assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, ownClient()));
    // the same pid with another start: the pid was reused, the holder is gone
    RunLock.Holder gone = new RunLock.Holder("e", host, ProcessHandle.current().pid(), Instant.now().toString(), "train",
        namespace, ticks - 1);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(new ObjectMapper().writeValueAsBytes(gone));
    }
    Path aside = RunLayout.of(run).staleLock("e");
    try (RunLock lock = RunLock.acquire(run, "train", false, ownClient())) {
      assertTrue(fs.exists(aside), "a second taker of the same dead holder must find its name taken");
      assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, ownClient()));
    }
    assertFalse(fs.exists(aside));
    assertFalse(fs.exists(file));
  }

  @Test
  void aFileSystemWithoutConditionalCreateIsRefusedNamingItsScheme() {
    Configuration conf = new Configuration();
    // a file system whose client offers no conditional create, as gs:// and abfs:// clients are refused alike
    conf.set("fs.gs.impl", "org.apache.hadoop.fs.http.HttpFileSystem");
    org.sparknmt.base.UsageException e = assertThrows(org.sparknmt.base.UsageException.class,
        () -> RunLock.acquire("gs://bucket/runs/x", "train", false, conf));
    assertEquals("--run gs://bucket/runs/x: gs:// offers no conditional create (fs.option.create.conditional.overwrite), "
        + "so the run lock (RUN/.lock) would not keep a second writer out: prepare, train and average write a run on "
        + "HDFS, a local (or NFS) file system, or s3a:// with fs.s3a.create.conditional.enabled=true; copy the run there "
        + "(translate and evaluate read it from anywhere)", e.getMessage());
  }
}
