package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.checkpoint.CheckpointStore;

/**
 * A production-size model ({@code conf/base.conf} by default; {@code -Dsparknmt.production.conf=conf/big.conf})
 * trains averaging rounds of five steps of the Multi30k recipe's data on a MiniYARNCluster under the YARN
 * preset's own limits: executors of 8g heap + 6g overhead, ND4J capped at 5g,
 * {@code spark.driver.maxResultSize} 4g, the NodeManager's physical-memory check on, and the driver's
 * heap as the launcher plans it. Only the executor count and cores are cut, to single-core executors,
 * one per worker. Tagged "production": its memory (executors of a base model beside the driver) and
 * time do not fit CI, which excludes the tag; run it with
 * {@code -Dsparknmt.test.excludedGroups=none -Dit.test=ProductionSizeYarnIT}.
 * {@code -Dsparknmt.production.max_tokens} (default 1500, the recipe's) sets the batches' token budget,
 * {@code -Dsparknmt.production.workers} (default 2) the workers and executors, and
 * {@code -Dsparknmt.production.rounds} (default 2) the rounds: big fits this machine as one worker, one
 * round, at 500-token batches.
 */
@Tag("production")
class ProductionSizeYarnIT {
  private static final Path MULTI30K = LocalCluster.projectRoot().resolve("../shared/data/multi30k");
  private static final int WORKERS = Integer.getInteger("sparknmt.production.workers", 2);
  private static final int ROUNDS = Integer.getInteger("sparknmt.production.rounds", 2);
  private static final int STEPS_A_ROUND = 5;
  private static YarnCluster yarn;

  @BeforeAll
  static void up() throws IOException {
    // the preset's executor sizes, one a worker; YARN books 14 GB each + the ApplicationMaster
    yarn = YarnCluster.start("yarn-production", 16384 * WORKERS, List.of(
        "spark.executor.instances " + WORKERS,
        "spark.executor.cores 1",
        "spark.task.cpus 1",
        "spark.executorEnv.OMP_NUM_THREADS 1"));
  }

  @AfterAll
  static void down() throws IOException {
    if (yarn != null) {
      yarn.close();
    }
  }

  @Test
  void trainsUnderThePresetsLimits() throws Exception {
    String conf = System.getProperty("sparknmt.production.conf", "conf/base.conf");
    String maxTokens = System.getProperty("sparknmt.production.max_tokens", "1500");
    String run = yarn.hdfsUri("/runs/production");
    long start = System.nanoTime();
    yarn.sparknmt(Map.of("SPARKNMT_ND4J_EXTENSION", ""), Duration.ofMinutes(20),
        "prepare", "--master", "local[2]", "--conf", "conf/multi30k-en-de.conf", "--set", "data.max_tokens=" + maxTokens,
        "--src", MULTI30K.resolve("train.en.gz").toString(), "--tgt", MULTI30K.resolve("train.de.gz").toString(),
        "--valid-src", MULTI30K.resolve("val.en.gz").toString(), "--valid-tgt", MULTI30K.resolve("val.de.gz").toString(),
        "--run", run).assertSucceeded();
    double prepareSeconds = (System.nanoTime() - start) / 1e9;

    start = System.nanoTime();
    Map<Long, Long> peakKib = new ConcurrentHashMap<>();
    Map<Long, Long> driverPeakKib = new ConcurrentHashMap<>();
    CompletableFuture<ScriptRun> train = CompletableFuture.supplyAsync(() -> {
      try {
        return yarn.sparknmt(yarn.plannedDriverEnvironment(), Duration.ofMinutes(120), "train", "--master", "yarn",
            "--run", run, "--conf", conf, "--set", "train.workers=" + WORKERS,
            "--set", "train.averaging_frequency=" + STEPS_A_ROUND, "--set", "train.max_steps=" + STEPS_A_ROUND * ROUNDS,
            "--set", "train.valid_bleu_sentences=0");
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    while (!train.isDone()) {
      for (ProcessHandle executor : yarn.executors()) {
        peakKib.merge(executor.pid(), peakResidentKib(executor.pid()), Math::max);
      }
      for (ProcessHandle driver : drivers(run)) {
        driverPeakKib.merge(driver.pid(), peakResidentKib(driver.pid()), Math::max);
      }
      Thread.sleep(2000);
    }
    ScriptRun trained = train.get().assertSucceeded();
    double trainSeconds = (System.nanoTime() - start) / 1e9;

    try (FileSystem hdfs = FileSystem.newInstance(URI.create(run), new Configuration(false))) {
      List<Long> steps = LongStream.rangeClosed(1, ROUNDS).map(round -> round * STEPS_A_ROUND).boxed().toList();
      assertEquals(steps.get(steps.size() - 1), new CheckpointStore(run, hdfs.getConf()).latest().orElseThrow().step());
      List<JsonNode> rounds = new ArrayList<>();
      try (InputStream in = hdfs.open(new org.apache.hadoop.fs.Path(run + "/metrics/train.jsonl"))) {
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          rounds.add(new ObjectMapper().readTree(line));
        }
      }
      assertEquals(steps, rounds.stream().map(r -> r.get("step").asLong()).toList());
      String parameters = trained.output().lines().filter(l -> l.contains(" parameters; vocabulary")).findFirst()
          .orElseThrow(() -> new AssertionError("no parameter count:\n" + trained.output()));
      long p = Long.parseLong(parameters.replaceAll(".*?(\\d+) parameters;.*", "$1"));
      for (JsonNode round : rounds) {
        long in = round.get("driver_bytes_in").asLong();
        // one averaged state (12 bytes a parameter) and the tasks' statuses (0.5 % in local[2]), whatever the workers
        assertTrue(in >= 12 * p && in < 12 * p + 12 * p / 100, "driver_bytes_in " + in + " for " + p + " parameters");
      }
      System.out.printf("yarn production: %s, %d parameters, data.max_tokens %s: prepared in %.0f s; trained %d rounds"
              + " (%d steps, %d executors) in %.0f s; driver_bytes_in %s; executors' peak resident %s MiB;"
              + " the driver's %s MiB%n",
          conf, p, maxTokens, prepareSeconds, ROUNDS, STEPS_A_ROUND * ROUNDS, WORKERS, trainSeconds,
          rounds.stream().map(r -> r.get("driver_bytes_in").asText()).toList(),
          peakKib.values().stream().map(k -> k >> 10).toList(),
          driverPeakKib.values().stream().map(k -> k >> 10).toList());
    }
  }

  /** The client-mode driver of the training job that writes {@code run}: the launcher's JVM. */
  private static List<ProcessHandle> drivers(String run) {
    return ProcessHandle.allProcesses().filter(p -> {
      String line = commandLine(p.pid());
      return line.contains("SparkSubmit") && line.contains(run) && line.contains(" train ");
    }).toList();
  }

  /**
   * A process's whole command line, read from /proc: {@code ProcessHandle.Info} reads only its first
   * page, which the launcher's classpath fills before the class and the arguments.
   */
  private static String commandLine(long pid) {
    try {
      byte[] line = Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"));
      return new String(line, StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  /** VmHWM of a running process, 0 when it has gone. */
  private static long peakResidentKib(long pid) {
    try {
      return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmHWM:"))
          .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0);
    } catch (IOException e) {
      return 0;
    }
  }
}
