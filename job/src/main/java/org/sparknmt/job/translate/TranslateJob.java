package org.sparknmt.job.translate;

import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.sparknmt.job.io.HadoopLines;
import org.sparknmt.job.io.SingleFileOutput;
import org.sparknmt.job.threads.LocalTaskThreads;
import scala.Tuple2;

/**
 * Batch translation on Spark: the model and vocabulary are broadcast once, each partition is
 * translated in blocks of {@value TranslatedBlocks#BLOCK} lines (sorted by length inside a block, order restored),
 * and the translations are written as one file with exactly the input's lines in the input's order.
 */
public final class TranslateJob {
  private TranslateJob() {}

  /**
   * What a translation run did.
   *
   * @param lines lines read and written
   * @param targetTokens output subwords (EOS excluded)
   * @param seconds wall time of the Spark jobs
   */
  public record Result(String checkpoint, long lines, long targetTokens, double seconds) {
    public double sentencesPerSecond() {
      return lines / seconds;
    }

    public double tokensPerSecond() {
      return targetTokens / seconds;
    }
  }

  /** Translates {@code inputUri} (a file, plain or compressed, a folder of parts, or a glob) into the file {@code outputUri}. */
  public static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config, String inputUri,
      String outputUri, boolean replace) throws IOException {
    return run(sc, model, config, HadoopLines.read(sc, inputUri, "--input"), outputUri, replace);
  }

  /** Translates {@code lines} into the file {@code outputUri}. */
  public static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config, JavaRDD<String> lines,
      String outputUri, boolean replace) throws IOException {
    sc.setJobGroup("translate", "sparknmt translate: " + model.checkpoint() + " -> " + outputUri, false);
    long start = System.nanoTime();
    Broadcast<TranslationModel> shared = sc.broadcast(model);
    LongAccumulator tokens = sc.sc().longAccumulator("target tokens");
    JavaRDD<String> parts = partitioned(lines, config.partitions());
    try (LocalTaskThreads threads = LocalTaskThreads.share(sc.sc(), parts.getNumPartitions())) {
      JavaRDD<String> translations = translate(parts, shared, config, tokens);
      long written = SingleFileOutput.write(translations, outputUri, replace, sc.hadoopConfiguration());
      return new Result(model.checkpoint(), written, tokens.value(), (System.nanoTime() - start) / 1e9);
    } finally {
      shared.destroy();
    }
  }

  /** The translations of {@code lines}, partition for partition and line for line. */
  static JavaRDD<String> translate(JavaRDD<String> lines, Broadcast<TranslationModel> model, TranslateConfig config,
      LongAccumulator tokens) {
    return lines.mapPartitions(partition -> translated(partition, model, config, tokens), true);
  }

  /**
   * {@code lines} as {@code partitions} contiguous ranges of lines, in order; 0 keeps the input's splits,
   * unless they are fewer than the context's default parallelism (a single compressed file is one split,
   * which would leave every core but one idle), which then gives the number of ranges.
   */
  static JavaRDD<String> partitioned(JavaRDD<String> lines, int partitions) {
    int ranges = partitions > 0 ? partitions : Math.max(lines.getNumPartitions(), lines.context().defaultParallelism());
    if (partitions == 0 && ranges == lines.getNumPartitions()) {
      return lines;
    }
    return lines.zipWithIndex().mapToPair(Tuple2::swap).sortByKey(true, ranges).values();
  }

  private static Iterator<String> translated(Iterator<String> lines, Broadcast<TranslationModel> model,
      TranslateConfig config, LongAccumulator tokens) {
    return TranslatedBlocks.of(lines, line -> line, (line, translation) -> translation,
        () -> model.value().sentenceTranslator(config), model.value().searchThreads(), tokens::add);
  }
}
