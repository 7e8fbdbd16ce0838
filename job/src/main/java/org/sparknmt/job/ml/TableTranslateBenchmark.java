package org.sparknmt.job.ml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.datasets.table.TableFormat;
import org.sparknmt.job.translate.TranslateConfig;
import org.sparknmt.job.translate.TranslateJob;
import org.sparknmt.job.translate.TranslationModel;

/**
 * The DataFrame path against the text path on the same sentences: sentences/s of
 * {@code translate --input-format parquet} ({@link TableTranslation}: read a Parquet table of ids and
 * sentences, {@link TranslationTransformer}, write Parquet) and of {@code translate} on the text file
 * ({@link TranslateJob}), each timed from loading the checkpoint to the written output, alternating
 * the two, after a warm-up of each; the median of REPEATS runs of each is reported.
 *
 * <p>{@code TableTranslateBenchmark RUN CHECKPOINT INPUT MASTER WORK [REPEATS]}: INPUT a text file of
 * sentences, WORK a local folder for the table and the outputs.
 */
public final class TableTranslateBenchmark {
  private TableTranslateBenchmark() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 5 && args.length != 6) {
      throw new IllegalArgumentException("usage: TableTranslateBenchmark RUN CHECKPOINT INPUT MASTER WORK [REPEATS]");
    }
    String run = args[0];
    String checkpoint = args[1];
    String input = args[2];
    Path work = Files.createDirectories(Path.of(args[4]));
    int repeats = args.length == 6 ? Integer.parseInt(args[5]) : 3;
    SparkConf conf = new SparkConf().setAppName("sparknmt table translate benchmark").setMaster(args[3])
        .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
        .setIfMissing("spark.local.dir", work.resolve("spark-local").toString());
    try (SparkSession spark = SparkSession.builder().config(conf).getOrCreate()) {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int partitions = sc.defaultParallelism();
      TranslateConfig config = new TranslateConfig(1, 0.6, 1.5, 10, 32, partitions);
      String table = table(spark, sc.textFile(input).collect(), partitions, work);
      TranslationTransformer translation = new TranslationTransformer().setCheckpoint(run, checkpoint)
          .setInputCol("text").setSearch(config);
      List<Double> text = new ArrayList<>();
      List<Double> frame = new ArrayList<>();
      long sentences = 0;
      for (int i = -1; i < repeats; i++) {
        long start = System.nanoTime();
        TranslationModel model = TranslationModel.load(run, checkpoint, sc.hadoopConfiguration());
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
          + "text path %.2f sentences/s, DataFrame path %.2f sentences/s, overhead %.1f %%%n", sentences, args[3],
          partitions, config.beam(), config.batchSize(), repeats, textRate, frameRate,
          100 * (textRate / frameRate - 1));
    }
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
