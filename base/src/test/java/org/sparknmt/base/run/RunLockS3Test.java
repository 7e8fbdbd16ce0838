package org.sparknmt.base.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.WriterProcess;
import org.sparknmt.testkit.S3Server;

/** The run lock on s3a:// against a real S3-compatible server: one conditional write per taker. */
class RunLockS3Test {
  @RegisterExtension static final S3Server S3 = new S3Server();

  @Test
  void aSecondWriterIsRefusedNamingTheHolderAndGetsTheLockWhenItIsReleased() throws IOException {
    String run = S3.uri("locked-run");
    RunLock first = RunLock.acquire(run, "train", false, S3.hadoop());
    RunLock.Held held = assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, S3.hadoop()));
    RunLock.Holder holder = first.holder();
    assertEquals(run + "/.lock is held by sparknmt train on host " + holder.host() + ", pid " + holder.pid() + ", started "
        + holder.started() + ": only one prepare, train or average may write to a run at a time. Wait for it to finish, "
        + "or if it no longer runs (killed on another host), rerun with --break-lock", held.getMessage());
    FileSystem fs = new Path(run).getFileSystem(S3.hadoop());
    try (InputStream in = fs.open(new Path(run, RunLayout.LOCK))) {
      assertEquals(holder, new ObjectMapper().readValue(in, RunLock.Holder.class), "the refused writer left the holder");
    }

    first.close();
    assertFalse(fs.exists(new Path(run, RunLayout.LOCK)), "released");
    RunLock.acquire(run, "average", false, S3.hadoop()).close();
  }

  /** The store refuses the write, not the client's check: a lock object that appears after the check still wins. */
  @Test
  void theStoreRefusesACreateWhoseObjectAppearedAfterTheClientsCheck() throws IOException {
    Path file = new Path(S3.uri("late-run"), RunLayout.LOCK);
    FileSystem fs = file.getFileSystem(S3.hadoop());
    FSDataOutputStreamBuilder<FSDataOutputStream, ?> builder = fs.createFile(file).overwrite(false);
    builder.must(org.sparknmt.base.files.ConditionalWrites.CREATE, true);
    FSDataOutputStream late = builder.build();
    late.write("late".getBytes());
    try (RunLock lock = RunLock.acquire(S3.uri("late-run"), "train", false, S3.hadoop())) {
      IOException refused = assertThrows(IOException.class, late::close);
      assertTrue(refused.getMessage().contains("412") || refused.getMessage().contains("recondition"),
          refused.getMessage());
      RunLock.Held held = assertThrows(RunLock.Held.class,
          () -> RunLock.acquire(S3.uri("late-run"), "prepare", false, S3.hadoop()));
      assertTrue(held.getMessage().contains("pid " + lock.holder().pid()), held.getMessage());
    }
  }

  @Test
  void aHolderProvablyGoneIsTakenOverOnceByItsEtagAndBreakLockTakesALiveOne() throws Exception {
    String run = S3.uri("stale-run");
    Path file = new Path(run, RunLayout.LOCK);
    FileSystem fs = file.getFileSystem(S3.hadoop());
    String host = InetAddress.getLocalHost().getHostName();
    String namespace = Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/pid")).toString();
    long ticks = WriterProcess.processStartTicks(ProcessHandle.current().pid()).orElseThrow();
    // this process's pid with another start: the pid was reused, the holder is gone
    RunLock.Holder gone = new RunLock.Holder("gone", host, ProcessHandle.current().pid(), Instant.now().toString(),
        "train", namespace, ticks - 1);
    try (FSDataOutputStream out = fs.create(file, true)) {
      out.write(new ObjectMapper().writeValueAsBytes(gone));
    }
    try (RunLock lock = RunLock.acquire(run, "train", false, S3.hadoop())) {
      assertFalse(lock.broken());
      RunLock.Held held = assertThrows(RunLock.Held.class, () -> RunLock.acquire(run, "train", false, S3.hadoop()));
      assertTrue(held.getMessage().contains("pid " + lock.holder().pid()), held.getMessage());
      // a live holder is taken only with --break-lock; the former holder then leaves the new one's lock alone
      RunLock broke = RunLock.acquire(run, "train", true, S3.hadoop());
      assertTrue(broke.broken());
      lock.close();
      assertTrue(fs.exists(file), "the former holder deleted the lock of the writer that broke it");
      broke.close();
    }
    assertFalse(fs.exists(file));
  }

  @Test
  void withoutConditionalCreateTheRunIsRefusedNamingTheSetting() {
    Configuration off = S3.hadoop();
    off.setBoolean("fs.s3a.create.conditional.enabled", false);
    UsageException e = assertThrows(UsageException.class,
        () -> RunLock.acquire(S3.uri("plain-run"), "train", false, off));
    assertEquals("--run s3a://runs/plain-run: s3a:// offers no conditional create "
        + "(fs.option.create.conditional.overwrite), so the run lock (RUN/.lock) would not keep a second writer out: "
        + "set fs.s3a.create.conditional.enabled=true (the default of hadoop-aws 3.5; "
        + "spark.hadoop.fs.s3a.create.conditional.enabled on Spark) on a store that honours If-None-Match (Amazon S3 "
        + "does since 2024), with hadoop-aws 3.5 or later on the classpath", e.getMessage());
  }

  @Test
  void aMissingBucketIsOneLineNamingTheRun() {
    IOException missing = assertThrows(IOException.class,
        () -> RunLock.acquire("s3a://no-such-bucket/run", "train", false, S3.hadoop()));
    assertOneLine(missing, "s3a://no-such-bucket/run");
  }

  private static void assertOneLine(Exception e, String names) {
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().contains(names), e.getMessage());
  }
}
