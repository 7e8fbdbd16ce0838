package org.sparknmt.cli;

import org.apache.spark.sql.SparkSession;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.evaluate.table.TableEvaluation;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt evaluate --table T --hyp-column H --ref-column R [--table-format F]}: a hypothesis
 * and a reference column of one table.
 */
public final class TableEvaluationOptions {
  @Option(names = "--table", paramLabel = "URI",
      description = "Score two columns of this table (e.g. the output of translate --input-format) "
          + "instead of --hyp and --ref files.")
  String table;

  @Option(names = "--table-format", defaultValue = "parquet", paramLabel = "FORMAT",
      description = "With --table: parquet, orc, json, csv or tsv (csv and tsv with a header line). "
          + "Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--hyp-column", defaultValue = "translation", paramLabel = "NAME",
      description = "With --table: the translations' column. Default: ${DEFAULT-VALUE}.")
  String hypColumn;

  @Option(names = "--ref-column", paramLabel = "NAME", description = "With --table: the references' column (required).")
  String refColumn;

  @Override
  public String toString() {
    return "--table " + table + " --table-format " + format + " --hyp-column " + hypColumn
        + " --ref-column " + refColumn;
  }

  /** Whether the table form was asked for. */
  public boolean given() {
    return table != null;
  }

  /**
   * Scores the table's columns.
   *
   * @throws IllegalArgumentException naming the option that is missing, a column that is not a string, or a bad format
   */
  public Evaluation evaluate(SparkSession spark) {
    if (refColumn == null) {
      throw new UsageException("--table " + table + " needs --ref-column NAME (the references' column)");
    }
    return TableEvaluation.run(spark, table, TableFormat.of("--table-format", format), hypColumn, refColumn);
  }
}
