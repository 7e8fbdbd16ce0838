package org.sparknmt.translate.table;

import java.util.Arrays;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.table.Columns;

/** The schema rules of {@link TranslationTransformer}: what it reads, what it adds, and the errors naming a column. */
final class TranslationColumns {
  private TranslationColumns() {}

  /** The index of the string column {@code name}: an error names it when it is missing or not a string. */
  static int source(StructType schema, String name) {
    return Columns.string(schema, "inputCol", name);
  }

  /** An n-best list's element: a hypothesis and its score. */
  static final StructType HYPOTHESIS = new StructType()
      .add("text", DataTypes.StringType, false)
      .add("score", DataTypes.DoubleType, false);

  /**
   * {@code schema} with column {@code output} appended, null where {@code input} is null: a string, or with
   * {@code list} an array of {@link #HYPOTHESIS}; then the string column {@code alignments} unless it is empty.
   */
  static StructType withTranslation(StructType schema, String input, String output, boolean list, String alignments) {
    StructField source = schema.fields()[source(schema, input)];
    absent(schema, "outputCol", output, "setOutputCol");
    StructType out = schema.add(new StructField(output,
        list ? DataTypes.createArrayType(HYPOTHESIS, false) : DataTypes.StringType, source.nullable(), Metadata.empty()));
    if (alignments.isEmpty()) {
      return out;
    }
    absent(out, "alignmentsCol", alignments, "setAlignmentsCol");
    return out.add(new StructField(alignments, DataTypes.StringType, source.nullable(), Metadata.empty()));
  }

  private static void absent(StructType schema, String param, String name, String setter) {
    if (Arrays.asList(schema.fieldNames()).contains(name)) {
      throw new UsageException(param + " \"" + name + "\" already exists: choose another name (" + setter + ")");
    }
  }
}
