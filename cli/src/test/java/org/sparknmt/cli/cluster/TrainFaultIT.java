package org.sparknmt.cli.cluster;

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
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.CheckpointWritePause;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.model.ModelArtifact;

/**
 * The faults long training runs meet, on a real standalone Spark cluster and HDFS daemons
 * ({@code scripts/cluster}), with the driver a real {@code scripts/sparknmt train} process: the
 * driver killed inside a checkpoint write and rerun, the DataNode and then the NameNode stopped and
 * restarted mid-training, an HDFS quota with no room left, an HDFS that is not there; and the whole
 * pipeline end to end on the same cluster. Each test prints what it measured. A killed executor and a
 * plain driver kill are {@link ChaosIT}'s (whose verdict is the stronger one: the disturbed run ends
 * bit-identical to an undisturbed one), {@code YarnIT}'s (an executor container lost, the run exits 0)
 * and {@code LostExecutorAverageTest}'s (an executor lost inside an averaging round).
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
    // one shard: the first round caches every training batch in the executors, so an HDFS outage later
    // meets only checkpoint writes; with 8 shards a round could still need to read one from the stopped
    // DataNode, and its tasks failed 4 times before the checkpoint write the test waits for
    cluster.sparknmt(Map.of(), "prepare", "--master", cluster.masterUrl(),
        "--src", cluster.hdfsUri("/corpus/train.en.gz"), "--tgt", cluster.hdfsUri("/corpus/train.de.gz"),
        "--valid-src", cluster.hdfsUri("/corpus/valid.en.gz"), "--valid-tgt", cluster.hdfsUri("/corpus/valid.de.gz"),
        "--run", prepared, "--conf", "conf/tiny.conf", "--set", "data.vocab_size=600", "--set", "data.max_tokens=768",
        "--set", "data.shards=1").assertSucceeded();
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

  /**
   * The driver killed inside a checkpoint write: the test hook stops the write of step 8 with its files
   * complete in the temporary folder, before the rename, and the kill lands there.
   */
  @Test
  void driverKilledInsideACheckpointWriteLeavesEveryCheckpointLoadableAndTheRerunResumes() throws Exception {
    String run = copyOfPrepared("checkpoint-kill");
    String interrupted = RunLayout.checkpointName(8);
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
        interrupted, partial, intact.stream().map(c -> c.path().getName()).toList(), RunLayout.checkpointName(4),
        (System.nanoTime() - rerunAt) / 1e9);
    assertTrue(rerun.output().contains("resuming from") && rerun.output().contains(RunLayout.checkpointName(4)),
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

  /**
   * Stops the DataNode after checkpoint step 4 and, once the run is past that outage, the NameNode: each
   * time the next checkpoint write meets the outage and is retried while training waits; the daemon is
   * started again (back in service: for the NameNode, out of safe mode) and the run finishes with every
   * checkpoint.
   */
  @Test
  void stoppedHdfsDaemonsMakeTrainingWaitAndTheRunFinishesWhenTheyAreBack() throws Exception {
    String run = copyOfPrepared("hdfs-restarts");
    Driver driver = Driver.start(trainArgs(run, 20, 4));
    try {
      long before = waitForCheckpoint(run, 4, driver);
      String datanode = outage(driver, "datanode", 1);
      long between = waitForCheckpoint(run, before + 4, driver);
      String namenode = outage(driver, "namenode", 2);

      assertEquals(0, driver.waitFor(TRAIN_TIMEOUT), driver.output());
      java.util.regex.Matcher retried = java.util.regex.Pattern
          .compile("succeeded at attempt (\\d+), ([0-9.]+) s after the first failure").matcher(driver.output());
      List<String> retries = new ArrayList<>();
      while (retried.find()) {
        retries.add("attempt " + retried.group(1) + " after " + retried.group(2) + " s");
      }
      List<Long> steps = store(run).list().stream().map(CheckpointStore.Checkpoint::step).toList();
      System.out.printf("hdfs-restarts: the DataNode stopped after checkpoint step %d (%s), the NameNode after step %d"
          + " (%s); writes retried through the outages: %s; checkpoints %s%n", before, datanode, between, namenode,
          retries, steps);
      assertEquals(2, retries.size(), "a checkpoint write was not retried through each outage:\n" + driver.output());
      assertEquals(List.of(4L, 8L, 12L, 16L, 20L), steps, "a checkpoint is missing");
      assertFinalModelUsable(run, 20);
      assertStepsIncrease(run);
    } finally {
      for (String daemon : List.of("datanode", "namenode")) {
        if (!cluster.running(daemon)) {
          cluster.daemon("start", daemon);
        }
      }
      if (driver.process.isAlive()) {
        driver.kill();
      }
    }
  }

  /**
   * Stops an HDFS daemon, waits until a checkpoint write has failed twice for it (the {@code outage}th
   * outage of the run), starts it again, and says how long each took.
   */
  private static String outage(Driver driver, String daemon, int outage) throws Exception {
    long stoppedAt = System.nanoTime();
    cluster.daemon("stop", daemon).assertSucceeded();
    waitForOutput(driver, "failed (attempt 2)", outage);
    double waitedSeconds = (System.nanoTime() - stoppedAt) / 1e9;
    long restartAt = System.nanoTime();
    cluster.daemon("start", daemon).assertSucceeded();
    return String.format("2nd failed write %.1f s later, back in %.1f s", waitedSeconds, (System.nanoTime() - restartAt) / 1e9);
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
    waitForOutput(driver, text, 1);
  }

  /** Waits (at most TRAIN_TIMEOUT) until the driver's output contains {@code text} {@code times} times; fails if the driver ends first. */
  private static void waitForOutput(Driver driver, String text, int times) throws Exception {
    long deadline = System.nanoTime() + TRAIN_TIMEOUT.toNanos();
    while (driver.output().split(java.util.regex.Pattern.quote(text), -1).length - 1 < times) {
      if (!driver.process.isAlive()) {
        throw new AssertionError("the driver ended before printing '" + text + "' " + times + " times:\n" + driver.output());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no '" + text + "' " + times + " times in " + TRAIN_TIMEOUT + ":\n" + driver.output());
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
