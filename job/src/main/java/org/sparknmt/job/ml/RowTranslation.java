package org.sparknmt.job.ml;

import java.util.Iterator;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.sparknmt.job.translate.HypothesesConfig;
import org.sparknmt.job.translate.OutputFormat;
import org.sparknmt.job.translate.TranslateConfig;
import org.sparknmt.job.translate.TranslatedBlocks;
import org.sparknmt.job.translate.TranslationModel;

/**
 * One partition of a table to the same rows, in the same order, each with its translation appended:
 * the text path's blocks and search ({@link TranslatedBlocks}), a null cell to a null translation.
 */
final class RowTranslation implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;
  /** The best text of a beam search, as without prefixes. */
  private static final HypothesesConfig BEST = new HypothesesConfig(1, OutputFormat.TEXT, false, "none", 1.0, 0, "");

  private final Broadcast<TranslationModel> model;
  private final TranslateConfig config;
  private final int column;
  private final int prefixColumn;

  /**
   * @param column the index of the string column to translate
   * @param prefixColumn the index of the string column of target prefixes, or −1 for none
   */
  RowTranslation(Broadcast<TranslationModel> model, TranslateConfig config, int column, int prefixColumn) {
    this.model = model;
    this.config = config;
    this.column = column;
    this.prefixColumn = prefixColumn;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    if (prefixColumn < 0) {
      return TranslatedBlocks.of(rows, this::source, RowTranslation::withTranslation,
          () -> model.value().sentenceTranslator(config), model.value().searchThreads(), tokens -> { });
    }
    // the rows' numbers would seed samples only: none are drawn here
    return TranslatedBlocks.of(rows, this::source, RowTranslation::withTranslation,
        () -> model.value().sentenceTranslator(config),
        (sentences, kept) -> sentences.hypotheses(kept.stream().map(this::source).toList(), new long[kept.size()],
            kept.stream().map(this::prefix).toList(), BEST).stream().map(h -> h.get(0).text()).toList(),
        model.value().searchThreads(), tokens -> { });
  }

  private String prefix(Row row) {
    return row.isNullAt(prefixColumn) ? "" : row.getString(prefixColumn);
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
