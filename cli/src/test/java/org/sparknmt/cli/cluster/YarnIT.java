package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.model.ModelArtifact;

/**
 * sparknmt on YARN: {@code scripts/sparknmt --master yarn} with the YARN preset submits to a
 * MiniYARNCluster beside a MiniDFS ({@link YarnCluster}); the executors, and in cluster deploy mode
 * the driver, run in YARN containers. Client mode trains a tiny model with two executors, checkpoints
 * to HDFS and survives an executor container killed mid-run; cluster mode resumes that run and
 * translates; client mode evaluates the translation. Each step prints what it measured.
 */
@Tag("slow")
class YarnIT {
  private static YarnCluster yarn;
  private static FileSystem hdfs;
  private static String run;

  @BeforeAll
  static void upAndPrepare() throws Exception {
    long start = System.nanoTime();
    yarn = YarnCluster.start("yarn-it");
    hdfs = FileSystem.newInstance(URI.create(yarn.hdfsUri("/")), new Configuration(false));
    for (String file : List.of("train.en.gz", "train.de.gz", "valid.en.gz", "valid.de.gz")) {
      hdfs.copyFromLocalFile(new Path(yarn.root.resolve("data/sample").resolve(file).toUri()),
          new Path(yarn.hdfsUri("/corpus/" + file)));
    }
    run = yarn.hdfsUri("/runs/yarn");
    // prepared in local mode: what this class tests starts with training
    yarn.sparknmt(Map.of("SPARKNMT_DRIVER_MEMORY", "1g", "SPARKNMT_NATIVE_MEMORY", "1g", "SPARKNMT_ND4J_EXTENSION", ""),
        "prepare", "--master", "local[2]",
        "--src", yarn.hdfsUri("/corpus/train.en.gz"), "--tgt", yarn.hdfsUri("/corpus/train.de.gz"),
        "--valid-src", yarn.hdfsUri("/corpus/valid.en.gz"), "--valid-tgt", yarn.hdfsUri("/corpus/valid.de.gz"),
        "--run", run, "--conf", "conf/tiny.conf", "--set", "data.vocab_size=600", "--set", "data.max_tokens=768")
        .assertSucceeded();
    System.out.printf("yarn: MiniYARNCluster + MiniDFS up and the sample prepared in %.0f s%n",
        (System.nanoTime() - start) / 1e9);
  }

  @AfterAll
  static void down() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
    if (yarn != null) {
      yarn.close();
    }
  }

  @Test
  void trainsInClientModeThroughAnExecutorLossThenResumesAndTranslatesInClusterModeAndEvaluates() throws Exception {
    // client mode: the driver is this launcher's JVM, the two executors are YARN containers
    long start = System.nanoTime();
    CompletableFuture<ScriptRun> client = CompletableFuture.supplyAsync(() -> submit("client", trainArgs(8)));
    waitForCheckpoint(4, client);
    List<ProcessHandle> executors = yarn.executors();
    assertEquals(2, executors.size(), "executor JVMs in containers: " + executors);
    long killedAt = System.nanoTime();
    executors.get(0).destroyForcibly();
    ScriptRun trained = client.get(10, TimeUnit.MINUTES).assertSucceeded();
    System.out.printf("yarn client: killed executor container JVM %d after checkpoint step 4; the run finished"
        + " %.0f s later (%.0f s in all), exit 0%n", executors.get(0).pid(), (System.nanoTime() - killedAt) / 1e9,
        (System.nanoTime() - start) / 1e9);
    assertTrue(trained.output().contains("2 workers x 2 batches"), trained.output());
    assertEquals(List.of(4L, 8L), steps());

    // cluster mode: the driver runs in the ApplicationMaster's container and resumes the same run
    start = System.nanoTime();
    submit("cluster", trainArgs(12)).assertSucceeded();
    double clusterTrainSeconds = (System.nanoTime() - start) / 1e9;
    assertEquals(List.of(4L, 8L, 12L), steps());
    assertTrue(yarn.containerLogs().lines()
            .anyMatch(line -> line.contains("resuming from") && line.contains(RunLayout.checkpointName(8))),
        "the cluster-mode driver did not resume from step 8");
    CheckpointStore.Checkpoint latest = new CheckpointStore(run, hdfs.getConf()).latest().orElseThrow();
    try (InputStream in = new CheckpointStore(run, hdfs.getConf()).openModel(latest)) {
      ModelArtifact.Loaded model = ModelArtifact.read(in, latest.state().vocabularySha256(), latest.path().toString());
      assertTrue(model.graph().params().length() > 0);
    }

    List<String> sources = TextLines.sample(yarn.root, "valid.en.gz", 20);
    String src = TextLines.write(hdfs, run + "/input/valid20.en", sources);
    String ref = TextLines.write(hdfs, run + "/input/valid20.de", TextLines.sample(yarn.root, "valid.de.gz", 20));
    String hyp = run + "/translations/valid20.de";
    start = System.nanoTime();
    submit("cluster", "translate", "--master", "yarn", "--run", run, "--checkpoint", "latest", "--input", src,
        "--output", hyp, "--beam", "2").assertSucceeded();
    double translateSeconds = (System.nanoTime() - start) / 1e9;
    List<String> translations = TextLines.read(hdfs, hyp);
    assertEquals(sources.size(), translations.size(), "translation lines");

    start = System.nanoTime();
    ScriptRun evaluate = submit("client", "evaluate", "--master", "yarn", "--hyp", hyp, "--ref", ref, "--json")
        .assertSucceeded();
    double evaluateSeconds = (System.nanoTime() - start) / 1e9;
    String json = evaluate.output().lines().filter(line -> line.startsWith("{") && line.contains("\"bleu\""))
        .findFirst().orElseThrow(() -> new AssertionError("no BLEU JSON line:\n" + evaluate.output()));
    var scores = new ObjectMapper().readTree(json);
    // 12 steps of a tiny model may translate every line to nothing: the plumbing is checked, not quality
    assertTrue(scores.get("bleu").isNumber() && scores.get("chrf").isNumber(), json);
    System.out.printf("yarn cluster: resumed from step 8 to 12 in %.0f s; translated %d lines in %.0f s;"
        + " yarn client: evaluated in %.0f s: BLEU %.2f chrF %.2f%n", clusterTrainSeconds, translations.size(),
        translateSeconds, evaluateSeconds, scores.get("bleu").asDouble(), scores.get("chrf").asDouble());
  }

  private static ScriptRun submit(String deployMode, String... args) {
    try {
      return yarn.sparknmt(yarn.launcherEnvironment(deployMode), args);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String[] trainArgs(long maxSteps) {
    return new String[] {"train", "--master", "yarn", "--run", run, "--conf", "conf/tiny.conf",
        "--set", "train.max_steps=" + maxSteps, "--set", "train.workers=2", "--set", "train.averaging_frequency=2",
        "--set", "train.checkpoint_every_steps=4", "--set", "train.keep_last=1000",
        "--set", "train.valid_bleu_sentences=0", "--set", "train.warmup_steps=10", "--set", "train.progress_seconds=1"};
  }

  private static List<Long> steps() throws IOException {
    return new CheckpointStore(run, hdfs.getConf()).list().stream().map(CheckpointStore.Checkpoint::step).toList();
  }

  /** Waits until an intact checkpoint of at least {@code step} exists; fails if the submission ends first. */
  private static void waitForCheckpoint(long step, CompletableFuture<ScriptRun> submission) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
    while (System.nanoTime() < deadline) {
      var latest = new CheckpointStore(run, hdfs.getConf()).latest();
      if (latest.isPresent() && latest.get().step() >= step) {
        return;
      }
      if (submission.isDone()) {
        throw new AssertionError("the run ended before checkpoint step " + step + ":\n" + submission.get().output());
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no checkpoint of step " + step + " in 8 minutes");
  }


}
