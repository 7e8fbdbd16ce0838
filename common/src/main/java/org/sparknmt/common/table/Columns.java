package org.sparknmt.common.table;

import java.util.Arrays;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.base.UsageException;

/** The columns a command reads from a table, with errors that name the option and the column. */
public final class Columns {
  private Columns() {}

  /**
   * The index of the string column {@code name} of {@code schema}, given as {@code param}.
   *
   * @throws IllegalArgumentException naming the param and the column when it is missing or not a string
   */
  public static int string(StructType schema, String param, String name) {
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
}
