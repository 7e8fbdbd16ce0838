package org.sparknmt.common.table;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparknmt.base.UsageException;

/**
 * The table formats of translate's {@code --input-format}/{@code --output-format}, evaluate's and
 * prepare's {@code --table-format}, read and written by Spark's own readers and writers. CSV and
 * TSV have a header line naming the columns, and every column is read as a string (no type
 * inference: a column of digits stays text to translate).
 * Spark's CSV reader reads an empty value ({@code ""}) as null, as it reads a missing one: an empty
 * cell of a CSV or TSV input comes out null, in both columns; the other formats keep the two apart.
 */
public enum TableFormat {
  PARQUET, ORC, JSON, CSV, TSV;

  /**
   * The format named {@code name} (any case) of {@code option}; {@code text} is not a table format.
   *
   * @throws IllegalArgumentException naming the option and the formats
   */
  public static TableFormat of(String option, String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + " " + name + ": expected text or one of the table formats "
          + Arrays.stream(values()).map(TableFormat::toString).collect(Collectors.joining(", ")), e);
    }
  }

  /** The table at {@code uri}. */
  public Dataset<Row> read(SparkSession spark, String uri) {
    return spark.read().format(sparkFormat()).options(options()).load(uri);
  }

  /** Writes {@code table} to the folder {@code uri}; an existing one is an error unless {@code replace}. */
  public void write(Dataset<Row> table, String uri, boolean replace) {
    table.write().mode(replace ? SaveMode.Overwrite : SaveMode.ErrorIfExists).format(sparkFormat()).options(options())
        .save(uri);
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  private String sparkFormat() {
    return this == TSV ? "csv" : toString();
  }

  /** Spark's CSV writer trims values by default: "  " would come back null, not as the blank it was. */
  private Map<String, String> options() {
    return switch (this) {
      case CSV -> Map.of("header", "true", "ignoreLeadingWhiteSpace", "false", "ignoreTrailingWhiteSpace", "false");
      case TSV -> Map.of("header", "true", "sep", "\t", "ignoreLeadingWhiteSpace", "false",
          "ignoreTrailingWhiteSpace", "false");
      default -> Map.of();
    };
  }
}
