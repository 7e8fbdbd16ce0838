package org.sparknmt.job.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.job.config.JobConfig;
import org.sparknmt.job.train.TrainConfig;
import org.sparknmt.job.train.TrainJob;
import org.sparknmt.model.TransformerConfig;

/**
 * Parameter-averaging cost on Spark: target tokens/s and the split of wall time into the workers'
 * fitting, their data conversion, and the rest (broadcast, averaging, scheduling), for 1 and 2 workers at averaging frequency 1, 5 and 20, on {@code local-cluster[2,1,MB]}.
 * Reads the train job's own per-round metrics; the first round of each setting (JIT, first
 * broadcast) is left out.
 *
 * <p>Usage: {@code SPARKNMT_MAIN_CLASS=org.sparknmt.job.bench.TrainScalingBench scripts/sparknmt
 * PREPARED_RUN STEPS [--master M] [--conf F] [--set k=v ...]} with a run prepared by {@code sparknmt prepare}.
 */
public final class TrainScalingBench {
  private TrainScalingBench() {}

  public static void main(String[] args) throws IOException {
    String prepared = args[0];
    long steps = Long.parseLong(args[1]);
    List<String> overrides = new ArrayList<>();
    java.nio.file.Path file = null;
    String master = "local-cluster[2,1,3072]";
    for (int i = 2; i < args.length; i += 2) {
      if (args[i].equals("--master")) {
        master = args[i + 1];
      } else if (args[i].equals("--conf")) {
        file = java.nio.file.Path.of(args[i + 1]);
      } else if (args[i].equals("--set")) {
        overrides.add(args[i + 1]);
      } else {
        throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
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
  }

  private static List<String> concat(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(List.of(more));
    return all;
  }

  private static void copyData(JavaSparkContext sc, String prepared, String run) throws IOException {
    Path target = new Path(run);
    FileSystem fs = target.getFileSystem(sc.hadoopConfiguration());
    fs.delete(target, true);
    FileUtil.copy(fs, new Path(prepared, "data"), fs, new Path(run, "data"), false, sc.hadoopConfiguration());
  }

  private static void report(JavaSparkContext sc, String run, int workers, int k) throws IOException {
    Path metrics = new Path(run, "metrics/train.jsonl");
    List<JsonNode> rounds = new ArrayList<>();
    try (InputStream in = metrics.getFileSystem(sc.hadoopConfiguration()).open(metrics)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          rounds.add(new ObjectMapper().readTree(line));
        }
      }
    }
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
