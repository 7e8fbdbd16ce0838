package org.sparknmt.job.translate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Translation speed: sentences/s and target tokens/s of {@link TranslateJob} at beam 1 and beam 4
 * on one corpus, after a warm-up pass (model restore, JIT) on its first lines.
 *
 * <p>{@code TranslateBenchmark RUN CHECKPOINT INPUT MASTER WORK}: WORK is a local folder for the outputs.
 */
public final class TranslateBenchmark {
  private static final int WARM_UP_LINES = 64;

  private TranslateBenchmark() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 5) {
      throw new IllegalArgumentException("usage: TranslateBenchmark RUN CHECKPOINT INPUT MASTER WORK");
    }
    String run = args[0];
    String input = args[2];
    Path work = Files.createDirectories(Path.of(args[4]));
    SparkConf conf = new SparkConf().setAppName("sparknmt translate benchmark").setMaster(args[3])
        .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
        .setIfMissing("spark.local.dir", work.resolve("spark-local").toString());
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      TranslationModel model = TranslationModel.load(run, args[1], sc.hadoopConfiguration());
      int cores = sc.defaultParallelism();
      TranslateConfig defaults = new TranslateConfig(4, 0.6, 1.5, 10, 32, cores);
      TranslateJob.run(sc, model, defaults.with(1, null, null, null, null, null),
          sc.parallelize(sc.textFile(input).take(WARM_UP_LINES), cores), work.resolve("warm-up.txt").toUri().toString(), true);
      System.out.printf("translate benchmark: %s (step %d) on %s, %s, %d partitions%n", model.checkpoint(), model.step(),
          input, args[3], cores);
      for (int beam : new int[] {1, 4}) {
        TranslateConfig config = defaults.with(beam, null, null, null, null, null);
        TranslateJob.Result result = TranslateJob.run(sc, model, config, input,
            work.resolve("beam-" + beam + ".txt").toUri().toString(), true);
        System.out.printf("beam %d: %d sentences, %d target tokens in %.1f s: %.2f sentences/s, %.1f target tokens/s%n",
            beam, result.lines(), result.targetTokens(), result.seconds(), result.sentencesPerSecond(),
            result.tokensPerSecond());
      }
    }
  }
}
