package org.sparknmt.job.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.job.checkpoint.CheckpointStore;
import org.sparknmt.job.checkpoint.CheckpointWritePause;
import org.sparknmt.model.ModelArtifact;

/**
 * The faults long training runs meet, on a real standalone Spark cluster and HDFS daemons
 * ({@code scripts/cluster}), with the driver a real {@code scripts/sparknmt train} process: an
 * executor killed, the driver killed and rerun, the driver killed inside a checkpoint write, the
 * DataNode and the NameNode stopped and restarted mid-training, an HDFS quota with no room left, an
 * HDFS that is not there; and the whole pipeline end to end on the same cluster. Each test prints what
 * it measured.
 */
@Tag("slow")
class TrainFaultIT {
  private static final Duration TRAIN_TIMEOUT = Duration.ofMinutes(8);
  private static LocalCluster cluster;
  private static FileSystem hdfs;
  private static String prepared;

  @BeforeAll
  static void upAndPrepare() throws Exception {
    cluster = new LocalCluster("train-faults");
    cluster.cluster("up").assertSucceeded();
    hdfs = FileSystem.newInstance(URI.create(cluster.hdfsUri("/")), new Configuration(false));
    for (String file : List.of("train.en.gz", "train.de.gz", "valid.en.gz", "valid.de.gz")) {
      hdfs.copyFromLocalFile(new Path(cluster.root.resolve("data/sample").resolve(file).toUri()),
          new Path(cluster.hdfsUri("/corpus/" + file)));
    }
    prepared = cluster.hdfsUri("/runs/prepared");
    cluster.sparknmt(Map.of(), "prepare", "--master", cluster.masterUrl(),
        "--src", cluster.hdfsUri("/corpus/train.en.gz"), "--tgt", cluster.hdfsUri("/corpus/train.de.gz"),
        "--valid-src", cluster.hdfsUri("/corpus/valid.en.gz"), "--valid-tgt", cluster.hdfsUri("/corpus/valid.de.gz"),
        "--run", prepared, "--conf", "conf/tiny.conf", "--set", "data.vocab_size=600", "--set", "data.max_tokens=768")
        .assertSucceeded();
  }

  @AfterAll
  static void down() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
    if (cluster != null) {
      cluster.cluster("down").assertSucceeded();
      cluster.deleteApplicationJars();
    }
  }

  @Test
  void killedExecutorIsReplacedAndTheRunFinishes() throws Exception {
    String run = copyOfPrepared("executor-kill");
    Driver driver = Driver.start(trainArgs(run, 24, 4));
    long checkpointStep = waitForCheckpoint(run, 4, driver);
    long executor = executors().get(0);
    long killedAt = System.nanoTime();
    ProcessHandle.of(executor).ifPresent(ProcessHandle::destroyForcibly);

    int exit = driver.waitFor(TRAIN_TIMEOUT);
    System.out.printf("executor-kill: killed executor %d after checkpoint step %d; run finished %.0f s later, exit %d%n",
        executor, checkpointStep, (System.nanoTime() - killedAt) / 1e9, exit);
    assertEquals(0, exit, driver.output());
    assertFinalModelUsable(run, 24);
  }

  @Test
  void killedDriverRerunResumesFromTheLastCheckpoint() throws Exception {
    String run = copyOfPrepared("driver-kill");
    Driver first = Driver.start(trainArgs(run, 24, 4));
    waitForCheckpoint(run, 8, first);
    first.kill();
    long lastCheckpoint = store(run).latest().orElseThrow().step();

    Driver rerun = Driver.start(trainArgs(run, 24, 4));
    assertEquals(0, rerun.waitFor(TRAIN_TIMEOUT), rerun.output());
    System.out.printf("driver-kill: killed after checkpoint step %d; rerun resumed and ended at step 24%n", lastCheckpoint);
    assertTrue(rerun.output().contains("resuming from") && rerun.output().contains(CheckpointStore.name(lastCheckpoint)),
        "the rerun did not resume from step " + lastCheckpoint + ":\n" + rerun.output());
    assertFinalModelUsable(run, 24);
    assertStepsIncrease(run);
  }

  /**
   * The driver killed inside a checkpoint write: the test hook stops the write of step 8 with its files
   * complete in the temporary folder, before the rename, and the kill lands there.
   */
  @Test
  void driverKilledInsideACheckpointWriteLeavesEveryCheckpointLoadableAndTheRerunResumes() throws Exception {
    String run = copyOfPrepared("checkpoint-kill");
    String interrupted = CheckpointStore.name(8);
    Driver driver = Driver.start(Map.of(CheckpointWritePause.VARIABLE, "8:600"), trainArgs(run, 12, 4));
    waitForOutput(driver, CheckpointWritePause.VARIABLE + ": the files of checkpoint " + interrupted);
    driver.kill();

    List<String> names = List.of(hdfs.listStatus(new Path(run, "checkpoints"))).stream()
        .map(status -> status.getPath().getName()).sorted().toList();
    List<String> partial = names.stream().filter(name -> name.startsWith("." + interrupted + ".tmp-")).toList();
    assertEquals(1, partial.size(), "no interrupted write of " + interrupted + " was left: " + names);
    assertTrue(driver.output().contains(partial.get(0)), "the temporary folder is not the killed writer's: " + partial);
    assertFalse(names.contains(interrupted), interrupted + " was published: " + names);
    assertEquals(Map.of(), store(run).damaged(), "a published checkpoint is damaged");
    List<CheckpointStore.Checkpoint> intact = store(run).list();
    assertEquals(List.of(4L), intact.stream().map(CheckpointStore.Checkpoint::step).toList());
    for (CheckpointStore.Checkpoint checkpoint : intact) {
      loadModel(run, checkpoint);
    }

    long rerunAt = System.nanoTime();
    Driver rerun = Driver.start(Map.of(), trainArgs(run, 12, 4));
    assertEquals(0, rerun.waitFor(TRAIN_TIMEOUT), rerun.output());
    System.out.printf("checkpoint-kill: killed inside the write of %s (files written, not renamed): left %s,"
        + " intact %s all load; the rerun took the stale lock, resumed from %s and ended at step 12 in %.0f s%n",
        interrupted, partial, intact.stream().map(c -> c.path().getName()).toList(), CheckpointStore.name(4),
        (System.nanoTime() - rerunAt) / 1e9);
    assertTrue(rerun.output().contains("resuming from") && rerun.output().contains(CheckpointStore.name(4)),
        "the rerun did not resume from step 4:\n" + rerun.output());
    assertFalse(hdfs.exists(new Path(run + "/checkpoints/" + partial.get(0))), "the killed writer's folder was kept");
    assertFinalModelUsable(run, 12);
    assertStepsIncrease(run);
  }

  @Test
  void unreachableHdfsIsAClearErrorWithinSeconds() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String run = "hdfs://127.0.0.1:" + closedPort + "/runs/nowhere";
    long start = System.nanoTime();
    ScriptRun result = cluster.sparknmt(Map.of(), "train", "--master", "local[1]", "--run", run, "--conf", "conf/tiny.conf");
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("hdfs-unreachable: exit %d after %.1f s%n", result.exitCode(), seconds);
    assertEquals(1, result.exitCode(), result.output());
    // Hadoop names the NameNode by its resolved host name (localhost), so the port identifies it
    assertTrue(result.output().contains("sparknmt train: ") && result.output().contains(":" + closedPort)
        && result.output().contains("Connection refused"), "the error does not name the address:\n" + result.output());
    assertTrue(seconds < 90, "took " + seconds + " s");
  }

  @Test
  void stoppedDataNodeMakesTrainingWaitAndTheRunFinishesWhenItIsBack() throws Exception {
    restartMidTraining("datanode");
  }

  @Test
  void restartedNameNodeMakesTrainingWaitAndTheRunFinishes() throws Exception {
    restartMidTraining("namenode");
  }

  /**
   * Stops an HDFS daemon after checkpoint step 4; the next checkpoint write meets the outage and is
   * retried while training waits; the daemon is started again (back in service: for the NameNode, out
   * of safe mode) and the run finishes with every checkpoint.
   */
  private static void restartMidTraining(String daemon) throws Exception {
    String run = copyOfPrepared(daemon + "-restart");
    Driver driver = Driver.start(trainArgs(run, 16, 4));
    long before = waitForCheckpoint(run, 4, driver);
    long stoppedAt = System.nanoTime();
    try {
      cluster.daemon("stop", daemon).assertSucceeded();
      // the next checkpoint write meets the outage: the driver retries instead of failing
      waitForOutput(driver, "failed (attempt 2)");
      double waitedSeconds = (System.nanoTime() - stoppedAt) / 1e9;
      long restartAt = System.nanoTime();
      cluster.daemon("start", daemon).assertSucceeded();
      double restartSeconds = (System.nanoTime() - restartAt) / 1e9;

      int exit = driver.waitFor(TRAIN_TIMEOUT);
      assertEquals(0, exit, driver.output());
      String output = driver.output();
      java.util.regex.Matcher retried = java.util.regex.Pattern
          .compile("succeeded at attempt (\\d+), ([0-9.]+) s after the first failure").matcher(output);
      assertTrue(retried.find(), "no checkpoint write was retried through the outage:\n" + output);
      List<Long> steps = store(run).list().stream().map(CheckpointStore.Checkpoint::step).toList();
      System.out.printf("%s-restart: %s stopped after checkpoint step %d; 2nd failed write %.1f s later;"
          + " %s back in %.1f s; the write succeeded at attempt %s, %s s after its first failure;"
          + " checkpoints %s, no step lost%n", daemon, daemon, before, waitedSeconds, daemon, restartSeconds,
          retried.group(1), retried.group(2), steps);
      assertEquals(List.of(4L, 8L, 12L, 16L), steps, "a checkpoint is missing");
      assertFinalModelUsable(run, 16);
      assertStepsIncrease(run);
    } finally {
      if (!cluster.running(daemon)) {
        cluster.daemon("start", daemon);
      }
      if (driver.process.isAlive()) {
        driver.kill();
      }
    }
  }

  @Test
  void hdfsQuotaWithoutRoomIsAClearErrorWithinSecondsOfTheStart() throws Exception {
    String run = copyOfPrepared("out-of-space");
    Path folder = new Path(run);
    DistributedFileSystem dfs = (DistributedFileSystem) hdfs;
    // room for 1 MB more than the prepared data: less than one HDFS block, which a write reserves
    long quota = dfs.getContentSummary(folder).getSpaceConsumed() + (1 << 20);
    dfs.setQuota(folder, HdfsConstants.QUOTA_DONT_SET, quota);
    try {
      long start = System.nanoTime();
      ScriptRun result = cluster.sparknmt(Map.of(), trainArgs(run, 16, 4));
      double seconds = (System.nanoTime() - start) / 1e9;
      String error = result.output().lines().filter(line -> line.startsWith("sparknmt train: ")).findFirst().orElse("");
      System.out.printf("out-of-space: exit %d after %.1f s (driver start included): %s%n", result.exitCode(), seconds, error);
      assertEquals(1, result.exitCode(), result.output());
      // the run lock is the run's first write, so it meets the quota first
      assertTrue(error.contains("out of space") && error.contains(run + "/.lock") && error.contains("quota"),
          "the error does not say out of space, where, and why:\n" + result.output());
      assertTrue(seconds < 120, "took " + seconds + " s");
      assertFalse(result.output().contains("Progress: step"), "it trained before failing:\n" + result.output());
      assertEquals(List.of(), store(run).list());
    } finally {
      dfs.setQuota(folder, HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET);
    }
  }

  /**
   * The pipeline on the cluster: train with 2 executors (checkpoints on hdfs://), then translate and
   * evaluate as spark-submit applications reading and writing hdfs://.
   */
  @Test
  void trainTranslateEvaluateEndToEndOnTheCluster() throws Exception {
    String run = copyOfPrepared("end-to-end");
    List<String> sources = TextLines.sample(cluster.root, "valid.en.gz", 40);
    String src = TextLines.write(hdfs, run + "/input/valid40.en", sources);
    String ref = TextLines.write(hdfs, run + "/input/valid40.de", TextLines.sample(cluster.root, "valid.de.gz", 40));
    String hyp = run + "/translations/valid40.de";
    long start = System.nanoTime();

    ScriptRun train = cluster.sparknmt(Map.of(), trainArgs(run, 8, 4)).assertSucceeded();
    double trainSeconds = (System.nanoTime() - start) / 1e9;
    assertTrue(train.output().contains("2 workers x 2 batches"), train.output());
    assertEquals(List.of(4L, 8L), store(run).list().stream().map(CheckpointStore.Checkpoint::step).toList());
    assertTrue(hdfs.exists(new Path(run, "metrics/train.jsonl")));

    cluster.sparknmt(Map.of(), "translate", "--master", cluster.masterUrl(), "--run", run, "--checkpoint", "latest",
        "--input", src, "--output", hyp, "--beam", "2").assertSucceeded();
    double translateSeconds = (System.nanoTime() - start) / 1e9 - trainSeconds;
    List<String> translations = TextLines.read(hdfs, hyp);
    assertEquals(sources.size(), translations.size(), "translation lines");
    assertTrue(translations.stream().anyMatch(line -> !line.isBlank()), "every translation is empty");

    ScriptRun evaluate = cluster.sparknmt(Map.of(), "evaluate", "--master", cluster.masterUrl(), "--hyp", hyp,
        "--ref", ref, "--json").assertSucceeded();
    double evaluateSeconds = (System.nanoTime() - start) / 1e9 - trainSeconds - translateSeconds;
    String json = evaluate.output().lines().filter(line -> line.startsWith("{") && line.contains("\"bleu\""))
        .findFirst().orElseThrow(() -> new AssertionError("no BLEU JSON line:\n" + evaluate.output()));
    var scores = new ObjectMapper().readTree(json);
    assertTrue(scores.get("bleu").isNumber() && scores.get("bleu").asDouble() >= 0, json);
    assertTrue(scores.get("chrf").isNumber() && scores.get("chrf").asDouble() > 0, json);
    System.out.printf("end-to-end: train 8 steps on 2 executors %.0f s, translate %d lines %.0f s, evaluate %.0f s:"
        + " BLEU %.2f chrF %.2f%n", trainSeconds, translations.size(), translateSeconds, evaluateSeconds,
        scores.get("bleu").asDouble(), scores.get("chrf").asDouble());
  }



  /** Waits (at most TRAIN_TIMEOUT) until the driver's output contains {@code text}; fails if the driver ends first. */
  private static void waitForOutput(Driver driver, String text) throws Exception {
    long deadline = System.nanoTime() + TRAIN_TIMEOUT.toNanos();
    while (!driver.output().contains(text)) {
      if (!driver.process.isAlive()) {
        throw new AssertionError("the driver ended before printing '" + text + "':\n" + driver.output());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no '" + text + "' in " + TRAIN_TIMEOUT + ":\n" + driver.output());
      }
      Thread.sleep(200);
    }
  }

  private static String[] trainArgs(String run, long maxSteps, long checkpointEvery) {
    return new String[] {"train", "--master", cluster.masterUrl(), "--run", run, "--conf", "conf/tiny.conf",
        "--set", "train.max_steps=" + maxSteps, "--set", "train.workers=2", "--set", "train.averaging_frequency=2",
        "--set", "train.checkpoint_every_steps=" + checkpointEvery, "--set", "train.keep_last=1000",
        "--set", "train.valid_bleu_sentences=0", "--set", "train.warmup_steps=10", "--set", "train.progress_seconds=1"};
  }

  private static String copyOfPrepared(String name) throws IOException {
    String run = cluster.hdfsUri("/runs/" + name);
    FileUtil.copy(hdfs, new Path(prepared, "data"), hdfs, new Path(run, "data"), false, hdfs.getConf());
    return run;
  }

  private static CheckpointStore store(String run) throws IOException {
    return new CheckpointStore(run, hdfs.getConf());
  }

  /** Waits until an intact checkpoint of at least {@code step} exists, and returns its step. */
  private static long waitForCheckpoint(String run, long step, Driver driver) throws Exception {
    long deadline = System.nanoTime() + TRAIN_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      var latest = store(run).latest();
      if (latest.isPresent() && latest.get().step() >= step) {
        return latest.get().step();
      }
      if (!driver.process.isAlive()) {
        throw new AssertionError("the driver ended before checkpoint step " + step + ":\n" + driver.output());
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no checkpoint of step " + step + " in " + TRAIN_TIMEOUT + ":\n" + driver.output());
  }

  /** Executor JVMs the cluster's workers launched. */
  private static List<Long> executors() {
    List<Long> pids = new ArrayList<>();
    for (String line : cluster.processesOfThisCluster()) {
      if (line.contains("CoarseGrainedExecutorBackend")) {
        pids.add(Long.parseLong(line.substring(0, line.indexOf(' '))));
      }
    }
    assertTrue(!pids.isEmpty(), "no executor JVM found");
    return pids;
  }

  private static void assertFinalModelUsable(String run, long step) throws IOException {
    CheckpointStore.Checkpoint latest = store(run).latest().orElseThrow();
    assertEquals(step, latest.step());
    assertTrue(loadModel(run, latest).graph().params().length() > 0);
  }

  private static ModelArtifact.Loaded loadModel(String run, CheckpointStore.Checkpoint checkpoint) throws IOException {
    try (InputStream in = store(run).openModel(checkpoint)) {
      return ModelArtifact.read(in, checkpoint.state().vocabularySha256(), checkpoint.path().toString());
    }
  }

  /** train.jsonl never repeats or reorders a step across the kills and reruns. */
  private static void assertStepsIncrease(String run) throws IOException {
    long previous = 0;
    try (InputStream in = hdfs.open(new Path(run, "metrics/train.jsonl"))) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        long step = new ObjectMapper().readTree(line).get("step").asLong();
        assertTrue(step > previous, "step " + step + " after " + previous + " in train.jsonl");
        previous = step;
      }
    }
  }

  /** A {@code scripts/sparknmt} process running in the background: the launcher execs the driver JVM, so its PID is the driver's. */
  private record Driver(Process process, java.nio.file.Path log) {
    static Driver start(String... args) throws IOException {
      return start(Map.of(), args);
    }

    static Driver start(Map<String, String> env, String... args) throws IOException {
      java.nio.file.Path log = Files.createTempFile(Files.createDirectories(cluster.dir.resolve("test-logs")), "train-", ".log");
      List<String> command = new ArrayList<>(List.of("scripts/sparknmt"));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command).directory(cluster.root.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      builder.environment().putAll(cluster.launcherEnvironment());
      builder.environment().putAll(env);
      return new Driver(builder.start(), log);
    }

    int waitFor(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        kill();
        throw new AssertionError("train did not finish in " + timeout + ":\n" + output());
      }
      return process.exitValue();
    }

    /** kill -9, and wait until the JVM is gone. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(60, TimeUnit.SECONDS);
    }

    String output() {
      try {
        return Files.readString(log);
      } catch (IOException e) {
        return "(no output: " + e.getMessage() + ")";
      }
    }
  }
}
