package org.sparknmt.translate;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.sparknmt.base.lines.HadoopLines;
import org.sparknmt.base.lines.SingleFileOutput;
import org.sparknmt.base.run.JobProgress;
import org.sparknmt.common.threads.LocalTaskThreads;
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

  /**
   * Translates {@code inputUri} into the file {@code outputUri} with what {@code hypotheses} asks beyond the
   * best text (n-best lists, alignments, samples), written in its output format: each line's output is
   * labelled with the line's number in the input (0 = the first), which also seeds its sample, so neither
   * depends on the partitions.
   */
  public static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config,
      HypothesesConfig hypotheses, String inputUri, String outputUri, boolean replace) throws IOException {
    if (hypotheses.plain()) {
      return run(sc, model, config, inputUri, outputUri, replace);
    }
    return run(sc, model, config, hypotheses, HadoopLines.read(sc, inputUri, "--input"), -1, inputUri, outputUri, replace);
  }

  /** Translates {@code lines} into the file {@code outputUri}. */
  public static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config, JavaRDD<String> lines,
      String outputUri, boolean replace) throws IOException {
    return run(sc, model, config, lines, -1, outputUri, replace);
  }

  /**
   * Translates {@code lines}, {@code lineCount} of them (-1: not known), into the file {@code outputUri}; the
   * count, when known, gives the progress line its share done and ETA.
   */
  public static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config, JavaRDD<String> lines,
      long lineCount, String outputUri, boolean replace) throws IOException {
    return run(sc, model, config, null, lines, lineCount, null, outputUri, replace);
  }

  /**
   * hypotheses: null for the best text of each line, as {@link #translate} gives it; else its prefix file is
   * joined to the lines of inputUri.
   */
  private static Result run(JavaSparkContext sc, TranslationModel model, TranslateConfig config,
      HypothesesConfig hypotheses, JavaRDD<String> lines, long lineCount, String inputUri, String outputUri,
      boolean replace) throws IOException {
    sc.setJobGroup("translate", "sparknmt translate: " + model.checkpoint() + " -> " + outputUri, false);
    long start = System.nanoTime();
    Broadcast<TranslationModel> shared = sc.broadcast(model);
    LongAccumulator tokens = sc.sc().longAccumulator("target tokens");
    // open before partitioned(), whose line ranges already run jobs over the input
    try (JobProgress progress = new JobProgress(sc, "translate", lineCount < 0 ? "lines written" : "lines",
        JobProgress.Count.OUTPUT_RECORDS, lineCount, JobProgress.DEFAULT_SECONDS)) {
      JavaRDD<String> parts = partitioned(lines, config.partitions());
      try (LocalTaskThreads threads = LocalTaskThreads.share(sc.sc(), parts.getNumPartitions())) {
        JavaRDD<String> translations = hypotheses == null ? translate(parts, shared, config, tokens)
            : numbered(sc, parts, inputUri, hypotheses).mapPartitions(partition -> TranslatedBlocks.of(partition,
                NumberedLine::text, (NumberedLine line, List<LineHypothesis> h) -> hypotheses.outputFormat().format(line.id(), h),
                () -> shared.value().sentenceTranslator(config),
                (sentences, numbered) -> sentences.hypotheses(numbered.stream().map(NumberedLine::text).toList(),
                    numbered.stream().mapToLong(NumberedLine::id).toArray(),
                    hypotheses.prefixed() ? numbered.stream().map(NumberedLine::prefix).toList() : null, hypotheses),
                shared.value().searchThreads(), tokens::add), true);
        long written = SingleFileOutput.write(translations, outputUri, replace, sc.hadoopConfiguration());
        return new Result(model.checkpoint(), written, tokens.value(), (System.nanoTime() - start) / 1e9);
      } finally {
        shared.destroy();
      }
    }
  }

  /** The lines numbered in their order (0 = the first), each with its line of the prefix file if there is one. */
  private static JavaRDD<NumberedLine> numbered(JavaSparkContext sc, JavaRDD<String> lines, String inputUri,
      HypothesesConfig hypotheses) {
    if (!hypotheses.prefixed()) {
      return lines.zipWithIndex().map(line -> new NumberedLine(line._1(), line._2(), null));
    }
    return TargetPrefixes.aligned(lines, inputUri, HadoopLines.read(sc, hypotheses.prefix(), "--prefix"),
        hypotheses.prefix());
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
