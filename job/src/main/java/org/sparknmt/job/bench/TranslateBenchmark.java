package org.sparknmt.job.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.job.evaluate.EvaluateJob;
import org.sparknmt.job.metrics.BleuScore;
import org.sparknmt.job.translate.TranslateConfig;
import org.sparknmt.job.translate.TranslateJob;
import org.sparknmt.job.translate.TranslationModel;

/**
 * Translation speed and quality: sentences/s, target tokens/s and BLEU of {@link TranslateJob} at beam
 * 1 and beam 4 on one corpus, after a warm-up pass (model restore, JIT) on its first lines; each
 * beam is timed REPEATS times and the median run reported, with the load average before each run.
 * BLEU and the length ratio against the reference show that speed does not come from shorter outputs.
 *
 * <p>{@code TranslateBenchmark RUN CHECKPOINT INPUT REF MASTER WORK [REPEATS]}: WORK is a local folder
 * for the outputs.
 */
public final class TranslateBenchmark {
  private static final int WARM_UP_LINES = 64;
  private static final int BATCH_SIZE = 32;

  private record Timed(TranslateJob.Result result, String load) {}

  private TranslateBenchmark() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 6 && args.length != 7) {
      throw new IllegalArgumentException("usage: TranslateBenchmark RUN CHECKPOINT INPUT REF MASTER WORK [REPEATS]");
    }
    String input = args[2];
    String ref = args[3];
    Path work = Files.createDirectories(Path.of(args[5]));
    int repeats = args.length == 7 ? Integer.parseInt(args[6]) : 3;
    SparkConf conf = new SparkConf().setAppName("sparknmt translate benchmark").setMaster(args[4])
        .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
        .setIfMissing("spark.local.dir", work.resolve("spark-local").toString());
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      TranslationModel model = TranslationModel.load(args[0], args[1], sc.hadoopConfiguration());
      int cores = sc.defaultParallelism();
      // the length penalty of the recipe's translate section (chosen on valid)
      TranslateConfig defaults = new TranslateConfig(4, 2.0, 1.5, 10, BATCH_SIZE, cores);
      TranslateJob.run(sc, model, defaults.with(1, null, null, null, null, null),
          sc.parallelize(sc.textFile(input).take(WARM_UP_LINES), cores), work.resolve("warm-up.txt").toUri().toString(), true);
      System.out.printf("translate benchmark: %s (step %d) on %s, %s, %d partitions, batches of %d sentences, "
          + "length penalty %.1f, median of %d runs%n", model.checkpoint(), model.step(), input, args[4], cores,
          BATCH_SIZE, defaults.lengthPenalty(), repeats);
      for (int beam : new int[] {1, 4}) {
        TranslateConfig config = defaults.with(beam, null, null, null, null, null);
        String output = work.resolve("beam-" + beam + ".txt").toUri().toString();
        List<Timed> runs = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
          String load = loadAverage();
          runs.add(new Timed(TranslateJob.run(sc, model, config, input, output, true), load));
        }
        BleuScore bleu = EvaluateJob.run(sc, output, ref).bleu();
        for (Timed run : runs) {
          System.out.printf("  beam %d run: %.1f s, load average %s%n", beam, run.result().seconds(), run.load());
        }
        Timed median = runs.stream().sorted(Comparator.comparingDouble(t -> t.result().seconds())).toList()
            .get(runs.size() / 2);
        TranslateJob.Result r = median.result();
        System.out.printf("beam %d: %d sentences, %d target tokens in %.1f s: %.2f sentences/s, %.1f target tokens/s, "
            + "BLEU %.2f, length ratio %.3f, load average %s%n", beam, r.lines(), r.targetTokens(), r.seconds(),
            r.sentencesPerSecond(), r.tokensPerSecond(), bleu.score(), bleu.ratio(), median.load());
      }
    }
  }

  /** The 1-, 5- and 15-minute load averages (Linux), or "n/a". */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }
}
