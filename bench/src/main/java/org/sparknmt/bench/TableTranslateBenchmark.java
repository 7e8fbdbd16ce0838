package org.sparknmt.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;
import org.sparknmt.translate.table.TableTranslation;
import org.sparknmt.translate.table.TranslationTransformer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/**
 * The DataFrame path against the text path on the same sentences: sentences/s of
 * {@code translate --input-format parquet} ({@link TableTranslation}: read a Parquet table of ids and
 * sentences, {@link TranslationTransformer}, write Parquet) and of {@code translate} on the text file
 * ({@link TranslateJob}), each timed from loading the checkpoint to the written output, alternating
 * the two, after a warm-up of each; the median of REPEATS runs of each is reported.
 */
@Command(name = "TableTranslateBenchmark", mixinStandardHelpOptions = true,
    description = "Print sentences/s of translating a Parquet table against translating the same text file (median of REPEATS runs).")
public final class TableTranslateBenchmark implements Callable<Integer> {
  @Mixin
  TranslationBenchSetup setup;

  public static void main(String[] args) {
    System.exit(new CommandLine(new TableTranslateBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Path work = setup.workFolder();
    String input = setup.input;
    try (SparkSession spark = SparkSession.builder().config(setup.sparkConf("sparknmt table translate benchmark"))
        .getOrCreate()) {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int partitions = sc.defaultParallelism();
      TranslateConfig config = TranslateConfig.of(DecodingOptions.greedy().withLengthPenalty(new LengthPenalty.Gnmt(0.6)),
          32).withPartitions(partitions);
      String table = table(spark, sc.textFile(input).collect(), partitions, work);
      TranslationTransformer translation = new TranslationTransformer().setCheckpoint(setup.run, setup.checkpoint)
          .setInputCol("text").setSearch(config);
      List<Double> text = new ArrayList<>();
      List<Double> frame = new ArrayList<>();
      long sentences = 0;
      for (int i = -1; i < setup.repeats; i++) {
        long start = System.nanoTime();
        TranslationModel model = setup.loadModel(sc);
        String output = work.resolve("text.de").toUri().toString();
        sentences = TranslateJob.run(sc, model, config, input, output, true).lines();
        double textSeconds = (System.nanoTime() - start) / 1e9;
        double frameSeconds = TableTranslation.run(spark, translation, table, TableFormat.PARQUET,
            work.resolve("translated.parquet").toUri().toString(), TableFormat.PARQUET, true).seconds();
        if (i >= 0) {
          text.add(textSeconds);
          frame.add(frameSeconds);
        }
        System.out.printf("  %s: text %.1f s, table %.1f s%n", i < 0 ? "warm-up" : "run " + (i + 1), textSeconds,
            frameSeconds);
      }
      double textRate = sentences / median(text);
      double frameRate = sentences / median(frame);
      System.out.printf("%d sentences, %s, %d partitions, beam %d, batches of %d, median of %d: "
          + "text path %.2f sentences/s, DataFrame path %.2f sentences/s, overhead %.1f %%%n", sentences, setup.master,
          partitions, config.search().beamWidth(), config.batchSize(), setup.repeats, textRate, frameRate,
          100 * (textRate / frameRate - 1));
    }
    return 0;
  }

  /** INPUT as a Parquet table (id, text) of {@code partitions} contiguous ranges: the URI. */
  private static String table(SparkSession spark, List<String> lines, int partitions, Path work) {
    List<Row> rows = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      rows.add(RowFactory.create((long) i, lines.get(i)));
    }
    StructType schema = new StructType().add("id", DataTypes.LongType).add("text", DataTypes.StringType);
    String uri = work.resolve("input.parquet").toUri().toString();
    spark.createDataFrame(rows, schema).coalesce(partitions).write().mode("overwrite").parquet(uri);
    return uri;
  }

  private static double median(List<Double> seconds) {
    return seconds.stream().sorted().toList().get(seconds.size() / 2);
  }
}
