package org.sparknmt.job.evaluate;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import scala.Tuple2;

/**
 * Corpus BLEU and chrF of a hypothesis file against a reference file, on the cluster: lines are
 * paired by number, each executor computes the sufficient statistics of its pairs, and the driver
 * only sums them. Besides the small jobs that number the lines, scoring is one Spark job whatever
 * the corpus size.
 */
public final class EvaluateJob {
  private EvaluateJob() {}

  /**
   * Scores {@code hypUri} against {@code refUri}.
   *
   * @throws IllegalArgumentException if a file is missing, both are empty, or their line counts differ
   */
  public static Evaluation run(JavaSparkContext sc, String hypUri, String refUri) {
    sc.setJobGroup("evaluate", "sparknmt evaluate: BLEU and chrF of " + hypUri + " against " + refUri, false);
    JavaPairRDD<Long, String> hyps = numbered(sc, hypUri, "--hyp");
    JavaPairRDD<Long, String> refs = numbered(sc, refUri, "--ref");
    CorpusStats stats = hyps.fullOuterJoin(refs).values().map(EvaluateJob::statsOf).fold(CorpusStats.empty(), CorpusStats::plus);
    if (stats.hypLines() != stats.refLines()) {
      throw new IllegalArgumentException("hypothesis and reference differ in length: --hyp " + hypUri + " has "
          + stats.hypLines() + " lines, --ref " + refUri + " has " + stats.refLines() + " lines");
    }
    if (stats.hypLines() == 0) {
      throw new IllegalArgumentException("nothing to evaluate: --hyp " + hypUri + " and --ref " + refUri + " have no lines");
    }
    return new Evaluation(hypUri, refUri, stats.hypLines(), Bleu.score(stats.bleu()), Chrf.score(stats.chrf()));
  }

  /** (line number, line). */
  private static JavaPairRDD<Long, String> numbered(JavaSparkContext sc, String uri, String option) {
    return HadoopLines.read(sc, uri, option).zipWithIndex().mapToPair(Tuple2::swap);
  }

  private static CorpusStats statsOf(Tuple2<Optional<String>, Optional<String>> pair) {
    if (pair._1().isPresent() && pair._2().isPresent()) {
      return CorpusStats.pair(pair._1().get(), pair._2().get());
    }
    return CorpusStats.unpaired(pair._1().isPresent());
  }
}
