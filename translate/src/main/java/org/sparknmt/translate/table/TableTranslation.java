package org.sparknmt.translate.table;

import org.apache.spark.sql.SparkSession;
import org.sparknmt.common.table.TableFormat;

/**
 * {@code sparknmt translate --input-format FORMAT}: a table to the same table with a translation
 * column, by {@link TranslationTransformer}.
 */
public final class TableTranslation {
  private TableTranslation() {}

  /**
   * What a table translation did.
   *
   * @param rows rows read and written (null and empty cells included)
   * @param seconds wall time from reading to the written output (model load and broadcast included)
   */
  public record Result(long rows, double seconds) {
    public double rowsPerSecond() {
      return rows / seconds;
    }
  }

  /** Translates {@code translation}'s input column of the table {@code input} into the table folder {@code output}. */
  public static Result run(SparkSession spark, TranslationTransformer translation, String input,
      TableFormat inputFormat, String output, TableFormat outputFormat, boolean replace) {
    spark.sparkContext().setJobGroup("translate", "sparknmt translate: " + input + " (" + inputFormat + ") -> " + output
        + " (" + outputFormat + ")", false);
    long start = System.nanoTime();
    outputFormat.write(translation.transform(inputFormat.read(spark, input)), output, replace);
    double seconds = (System.nanoTime() - start) / 1e9;
    // counted on the written table, after the clock: parquet and orc answer from their footers
    return new Result(outputFormat.read(spark, output).count(), seconds);
  }
}
