package org.sparknmt.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.train.TrainJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Parameter-averaging cost on Spark: target tokens/s and the split of wall time into the workers'
 * fitting, their data conversion, and the rest (broadcast, averaging, scheduling), for 1 and 2 workers at averaging frequency 1, 5 and 20, on {@code local-cluster[2,1,MB]}.
 * Reads the train job's own per-round metrics; the first round of each setting (JIT, first
 * broadcast) is left out.
 *
 * <p>Run through the launcher, which gives the executors their classpath and flags:
 * {@code SPARKNMT_MAIN_CLASS=org.sparknmt.bench.TrainScalingBench SPARKNMT_EXTRA_CLASSPATH=BENCH_JAR
 * scripts/sparknmt PREPARED_RUN STEPS [--master M] [--conf F] [--set k=v ...]}, as
 * {@code scripts/bench-train-scaling} does.
 */
@Command(name = "TrainScalingBench", mixinStandardHelpOptions = true,
    description = "Print tokens/s and the split of a round's time for 1 and 2 workers at averaging frequency 1, 5, 20.")
public final class TrainScalingBench implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PREPARED_RUN", description = "A run prepared by sparknmt prepare.")
  String prepared;

  @Parameters(index = "1", paramLabel = "STEPS", description = "Training steps per setting.")
  long steps;

  @Option(names = "--master", defaultValue = "local-cluster[2,1,3072]", paramLabel = "MASTER",
      description = "Spark master (default ${DEFAULT-VALUE}).")
  String master;

  @Option(names = "--conf", paramLabel = "FILE", description = "HOCON config file, as sparknmt train takes it.")
  java.nio.file.Path file;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one config key. Repeatable.")
  List<String> overrides = new ArrayList<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new TrainScalingBench()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    overrides.add("train.valid_bleu_sentences=0");
    overrides.add("train.max_steps=" + steps);
    JobConfig config = JobConfig.load(file, overrides);
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    SparkConf spark = new SparkConf().setAppName("sparknmt train scaling bench")
        .setMaster(master).set("spark.executorEnv.OMP_NUM_THREADS", "1");
    System.out.printf("model d_model=%d heads=%d d_ff=%d layers=%d; %d steps per setting; master %s%n",
        model.dModel(), model.heads(), model.dFf(), model.layers(), steps, spark.get("spark.master"));
    System.out.println("workers  k   rounds  tokens/s  fit share  data share  other share  round s");
    try (JavaSparkContext sc = new JavaSparkContext(spark)) {
      for (int workers : new int[] {1, 2}) {
        for (int k : new int[] {1, 5, 20}) {
          String run = prepared + "-bench-w" + workers + "-k" + k;
          copyData(sc, prepared, run);
          JobConfig setting = JobConfig.load(file, concat(overrides,
              "train.workers=" + workers, "train.averaging_frequency=" + k));
          new TrainJob(sc, run, model, setting.bind("train", TrainConfig.class), setting.render()).run(TrainJob.Start.RESUME_OR_FRESH);
          report(sc, run, workers, k);
        }
      }
    }
    return 0;
  }

  private static List<String> concat(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(List.of(more));
    return all;
  }

  /** A fresh run folder {@code run} holding {@code prepared}'s data. */
  static void copyData(JavaSparkContext sc, String prepared, String run) throws IOException {
    Path target = new Path(run);
    FileSystem fs = target.getFileSystem(sc.hadoopConfiguration());
    fs.delete(target, true);
    FileUtil.copy(fs, RunLayout.of(prepared).data(), fs, RunLayout.of(run).data(), false, sc.hadoopConfiguration());
  }

  /** The lines of {@code run}'s metrics/train.jsonl, one per round. */
  static List<JsonNode> rounds(JavaSparkContext sc, String run) throws IOException {
    Path metrics = RunLayout.of(run).metricsLog(RunLayout.TRAIN_LOG);
    List<JsonNode> rounds = new ArrayList<>();
    try (InputStream in = metrics.getFileSystem(sc.hadoopConfiguration()).open(metrics)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          rounds.add(new ObjectMapper().readTree(line));
        }
      }
    }
    return rounds;
  }

  private static void report(JavaSparkContext sc, String run, int workers, int k) throws IOException {
    List<JsonNode> rounds = rounds(sc, run);
    List<JsonNode> measured = rounds.subList(Math.min(1, rounds.size() - 1), rounds.size());
    double wall = measured.get(measured.size() - 1).get("train_s").asDouble()
        - (rounds.size() > 1 ? rounds.get(0).get("train_s").asDouble() : 0);
    double tokens = 0;
    double fit = 0;
    double data = 0;
    for (JsonNode round : measured) {
      tokens += round.get("tokens_per_s").asDouble();
      fit += round.get("fit_share").asDouble();
      data += round.get("data_share").asDouble();
    }
    int n = measured.size();
    // "other" is the rest of the round's wall time: broadcast, averaging, Spark scheduling
    System.out.printf("%7d %3d %8d %9.0f %9.0f%% %10.0f%% %11.0f%% %8.2f%n", workers, k, n, tokens / n,
        100 * fit / n, 100 * data / n, 100 * (1 - (fit + data) / n), wall / n);
  }
}
