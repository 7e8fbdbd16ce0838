package org.sparknmt.prepare.input;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.prepare.clean.RejectReason;

/**
 * Reads a {@link CorpusInput.Table} into raw pairs keyed by {@link LineId}, the row number (1-based,
 * in the order Spark reads the table: a single file's own order) in place of a line number, so a
 * row goes through the same validation and rejects as a line of a file pair. A null cell is
 * rejected, not dropped, so read = kept + rejected still holds against the table's row count.
 */
public final class TableReader {
  private TableReader() {}

  public static JavaRDD<RawPair> read(JavaSparkContext sc, CorpusInput.Table table, int part) {
    Dataset<Row> rows = table.format().read(SparkSession.builder().config(sc.getConf()).getOrCreate(), table.uri());
    StructType schema = rows.schema();
    String source = stringColumn(table, schema, table.sourceColumn());
    String target = stringColumn(table, schema, table.targetColumn());
    return rows.select(source, target).javaRDD().zipWithIndex()
        .map(row -> pair(LineId.of(part, row._2 + 1), row._1, source, target));
  }

  /**
   * {@code name}, checked on the driver, before any row is read: a missing or non-string column is a
   * usage error naming the table, the column and what the table holds.
   */
  private static String stringColumn(CorpusInput.Table table, StructType schema, String name) {
    if (!Arrays.asList(schema.fieldNames()).contains(name)) {
      throw new UsageException("table " + table.uri() + " has no column " + name + " (its columns: "
          + String.join(", ", schema.fieldNames()) + ")");
    }
    StructField field = schema.apply(name);
    if (!field.dataType().equals(DataTypes.StringType)) {
      throw new UsageException("table " + table.uri() + ": column " + name + " is "
          + field.dataType().simpleString() + ", not a string column of sentences");
    }
    return name;
  }

  private static RawPair pair(long lineId, Row row, String sourceColumn, String targetColumn) {
    byte[] source = row.isNullAt(0) ? null : row.getString(0).getBytes(StandardCharsets.UTF_8);
    byte[] target = row.isNullAt(1) ? null : row.getString(1).getBytes(StandardCharsets.UTF_8);
    if (source == null || target == null) {
      String nulls = source == null && target == null ? "columns " + sourceColumn + " and " + targetColumn + " are"
          : "column " + (source == null ? sourceColumn : targetColumn) + " is";
      return RawPair.rejected(lineId, source, target, RejectReason.NULL_CELL, nulls + " null");
    }
    return RawPair.of(lineId, source, target);
  }
}
