package org.sparknmt.translate.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.LineHypothesis;
import org.sparknmt.translate.SentenceTranslator;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslatedBlocks;
import org.sparknmt.translate.TranslationModel;

/**
 * One partition of a table to the same rows, in the same order, each with its translation appended:
 * the text path's blocks and search ({@link TranslatedBlocks}), a null cell to a null translation. With
 * an n-best list the translation is an array of (text, score) rows, best first, and with alignments the
 * best hypothesis's Pharaoh pairs follow it.
 */
final class RowTranslation implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 2L;
  private static final int QUOTED_CHARS = 60;

  /**
   * Where a row's values are and what it gets.
   *
   * @param source the index of the string column to translate
   * @param prefix the index of the string column of target prefixes, or −1 for none
   * @param list whether the translation is the n-best list rather than the best text
   * @param alignments whether the best hypothesis's alignment is appended after the translation
   */
  record Columns(int source, String sourceName, int prefix, String prefixName, boolean list, boolean alignments)
      implements java.io.Serializable {}

  private final Broadcast<TranslationModel> model;
  private final TranslateConfig config;
  private final HypothesesConfig wanted;
  private final Columns columns;

  /** @param wanted the hypotheses asked for, or null for the best text of a beam search without prefixes */
  RowTranslation(Broadcast<TranslationModel> model, TranslateConfig config, HypothesesConfig wanted, Columns columns) {
    this.model = model;
    this.config = config;
    this.wanted = wanted;
    this.columns = columns;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    if (wanted == null) {
      return TranslatedBlocks.of(rows, this::source, (row, text) -> appended(row, text),
          () -> model.value().sentenceTranslator(config), model.value().searchThreads(), tokens -> { });
    }
    return TranslatedBlocks.of(rows, this::source, this::withHypotheses,
        () -> model.value().sentenceTranslator(config), this::hypotheses, model.value().searchThreads(), tokens -> { });
  }

  private List<List<LineHypothesis>> hypotheses(SentenceTranslator sentences, List<Row> kept) {
    List<String> sources = kept.stream().map(this::source).toList();
    // a row has no number that survives repartitioning: its input value seeds its sample instead
    long[] ids = sources.stream().mapToLong(RowTranslation::valueId).toArray();
    List<String> prefixes = columns.prefix() < 0 ? null : kept.stream().map(this::prefix).toList();
    return sentences.hypotheses(sources, ids, prefixes, i -> "prefixCol \"" + columns.prefixName()
        + "\", the row whose inputCol \"" + columns.sourceName() + "\" is " + quoted(sources.get(i)), wanted);
  }

  private Row withHypotheses(Row row, List<LineHypothesis> found) {
    if (found == null) {
      return columns.alignments() ? appended(row, null, null) : appended(row, (Object) null);
    }
    Object translation = found.get(0).text();
    if (columns.list()) {
      translation = found.stream().map(h -> RowFactory.create(h.text(), h.score())).toArray(Row[]::new);
    }
    return columns.alignments() ? appended(row, translation, found.get(0).alignment()) : appended(row, translation);
  }

  private String prefix(Row row) {
    return row.isNullAt(columns.prefix()) ? "" : row.getString(columns.prefix());
  }

  private String source(Row row) {
    return row.isNullAt(columns.source()) ? null : row.getString(columns.source());
  }

  /** The first 64 bits of the SHA-256 of a value's UTF-8 bytes: its number wherever it is. */
  static long valueId(String value) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String quoted(String value) {
    return "\"" + (value.length() <= QUOTED_CHARS ? value : value.substring(0, QUOTED_CHARS) + "...") + "\"";
  }

  private static Row appended(Row row, Object... added) {
    Object[] values = new Object[row.length() + added.length];
    for (int i = 0; i < row.length(); i++) {
      values[i] = row.get(i);
    }
    System.arraycopy(added, 0, values, row.length(), added.length);
    return RowFactory.create(values);
  }
}
