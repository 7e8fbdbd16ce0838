package org.sparknmt.evaluate.table;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.CorpusStats;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.common.scores.Ngrams;
import org.sparknmt.common.table.Columns;
import org.sparknmt.common.table.TableFormat;

/**
 * {@code sparknmt evaluate --table T --hyp-column H --ref-column R}: corpus BLEU and chrF of a
 * table's hypothesis column against its reference column, row by row, with the statistics of the
 * text path ({@link CorpusStats}) computed on the executors. Two columns of one row are paired, so
 * the table's row order does not matter; a null cell counts as an empty sentence (a null source
 * translates to null).
 */
public final class TableEvaluation {
  private TableEvaluation() {}

  /**
   * @throws IllegalArgumentException naming the option and the column when a column is missing or not a string,
   *     or the table is empty
   */
  public static Evaluation run(SparkSession spark, String uri, TableFormat format, String hypColumn, String refColumn) {
    spark.sparkContext().setJobGroup("evaluate",
        "sparknmt evaluate: " + hypColumn + " against " + refColumn + " of " + uri, false);
    Dataset<Row> table = format.read(spark, uri);
    int hyp = Columns.string(table.schema(), "--hyp-column", hypColumn);
    int ref = Columns.string(table.schema(), "--ref-column", refColumn);
    CorpusStats corpus = table.toJavaRDD().mapPartitions(rows -> {
          Ngrams ngrams = new Ngrams();
          CorpusStats sum = CorpusStats.empty();
          while (rows.hasNext()) {
            Row row = rows.next();
            sum = sum.plus(CorpusStats.pair(text(row, hyp), text(row, ref), ngrams));
          }
          return List.of(sum).iterator();
        })
        .fold(CorpusStats.empty(), CorpusStats::plus);
    if (corpus.refLines() == 0) {
      throw new IllegalArgumentException("nothing to evaluate: --table " + uri + " has no rows");
    }
    return new Evaluation(uri + " [" + hypColumn + "]", uri + " [" + refColumn + "]", corpus.hypLines(),
        Bleu.score(corpus.bleu()), Chrf.score(corpus.chrf()));
  }

  private static String text(Row row, int column) {
    return row.isNullAt(column) ? "" : row.getString(column);
  }
}
