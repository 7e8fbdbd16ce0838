package org.sparknmt.job.ml;

import java.util.Arrays;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.datasets.UsageException;

/** The schema rules of {@link TranslationTransformer}: what it reads, what it adds, and the errors naming a column. */
final class TranslationColumns {
  private TranslationColumns() {}

  /** The index of the string column {@code name}: an error names it when it is missing or not a string. */
  static int source(StructType schema, String name) {
    return string(schema, "inputCol", name);
  }

  /**
   * The index of the string column {@code name} of {@code schema}, given as {@code param}.
   *
   * @throws IllegalArgumentException naming the param and the column when it is missing or not a string
   */
  static int string(StructType schema, String param, String name) {
    if (!Arrays.asList(schema.fieldNames()).contains(name)) {
      throw new UsageException(param + " \"" + name + "\": no such column; the columns are "
          + Arrays.toString(schema.fieldNames()));
    }
    StructField field = schema.apply(name);
    if (!field.dataType().equals(DataTypes.StringType)) {
      throw new UsageException(param + " \"" + name + "\" is a column of type "
          + field.dataType().simpleString() + ", not string: cast it (col(\"" + name + "\").cast(\"string\"))");
    }
    return schema.fieldIndex(name);
  }

  /** {@code schema} with the string column {@code output} appended, null where {@code input} is null. */
  static StructType withTranslation(StructType schema, String input, String output) {
    StructField source = schema.fields()[source(schema, input)];
    if (Arrays.asList(schema.fieldNames()).contains(output)) {
      throw new UsageException("outputCol \"" + output
          + "\" already exists: choose another name (setOutputCol)");
    }
    return schema.add(new StructField(output, DataTypes.StringType, source.nullable(), Metadata.empty()));
  }
}
