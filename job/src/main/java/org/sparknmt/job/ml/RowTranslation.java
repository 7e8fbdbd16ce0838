package org.sparknmt.job.ml;

import java.util.Iterator;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.sparknmt.job.translate.TranslateConfig;
import org.sparknmt.job.translate.TranslatedBlocks;
import org.sparknmt.job.translate.TranslationModel;

/**
 * One partition of a table to the same rows, in the same order, each with its translation appended:
 * the text path's blocks and search ({@link TranslatedBlocks}), a null cell to a null translation.
 */
final class RowTranslation implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TranslationModel> model;
  private final TranslateConfig config;
  private final int column;

  /** @param column the index of the string column to translate */
  RowTranslation(Broadcast<TranslationModel> model, TranslateConfig config, int column) {
    this.model = model;
    this.config = config;
    this.column = column;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    return TranslatedBlocks.of(rows, this::source, RowTranslation::withTranslation,
        () -> model.value().sentenceTranslator(config), model.value().searchThreads(), tokens -> { });
  }

  private String source(Row row) {
    return row.isNullAt(column) ? null : row.getString(column);
  }

  private static Row withTranslation(Row row, String translation) {
    Object[] values = new Object[row.length() + 1];
    for (int i = 0; i < row.length(); i++) {
      values[i] = row.get(i);
    }
    values[row.length()] = translation;
    return RowFactory.create(values);
  }
}
