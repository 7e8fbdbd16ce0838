package org.sparknmt.evaluate;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.lines.HadoopLines;
import org.sparknmt.base.run.JobProgress;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.CorpusStats;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.common.scores.Ngrams;
import scala.Tuple2;

/**
 * Corpus BLEU and chrF of one or more hypothesis files (say, the translations of several
 * checkpoints) against one reference file, on the cluster: lines are paired by number, each
 * executor computes the sufficient statistics of its pairs, and the driver only sums them. The
 * reference is read once for all hypotheses; besides the small jobs that number the lines, scoring
 * is one Spark job whatever the corpus size and the number of hypotheses.
 */
public final class EvaluateJob {
  private EvaluateJob() {}

  /** Scores {@code hypUri} against {@code refUri}; see {@link #run(JavaSparkContext, List, String)}. */
  public static Evaluation run(JavaSparkContext sc, String hypUri, String refUri) {
    return run(sc, List.of(hypUri), refUri).get(0);
  }

  /**
   * Scores each of {@code hypUris} against {@code refUri}.
   *
   * @return one evaluation per hypothesis, in the order given
   * @throws IllegalArgumentException if a file is missing, the reference is empty, or a
   *     hypothesis has a different number of lines than the reference
   */
  public static List<Evaluation> run(JavaSparkContext sc, List<String> hypUris, String refUri) {
    if (hypUris.isEmpty()) {
      throw new UsageException("--hyp: at least one hypothesis file is needed");
    }
    sc.setJobGroup("evaluate", "sparknmt evaluate: BLEU and chrF of " + String.join(", ", hypUris) + " against " + refUri, false);
    List<CorpusStats> stats;
    try (JobProgress progress = new JobProgress(sc, "evaluate", "lines read", JobProgress.Count.INPUT_RECORDS, -1,
        JobProgress.DEFAULT_SECONDS)) {
      stats = stats(sc, hypUris, refUri);
    }
    List<Evaluation> evaluations = new ArrayList<>();
    for (int s = 0; s < hypUris.size(); s++) {
      CorpusStats corpus = stats.get(s);
      if (corpus.hypLines() != corpus.refLines()) {
        throw new IllegalArgumentException("hypothesis and reference differ in length: --hyp " + hypUris.get(s) + " has "
            + corpus.hypLines() + " lines, --ref " + refUri + " has " + corpus.refLines() + " lines");
      }
      if (corpus.refLines() == 0) {
        throw new IllegalArgumentException("nothing to evaluate: --ref " + refUri + " and --hyp " + hypUris.get(s) + " have no lines");
      }
      evaluations.add(new Evaluation(hypUris.get(s), refUri, corpus.hypLines(), Bleu.score(corpus.bleu()), Chrf.score(corpus.chrf())));
    }
    return evaluations;
  }

  /** The statistics of each hypothesis file against the reference, in the order given. */
  private static List<CorpusStats> stats(JavaSparkContext sc, List<String> hypUris, String refUri) {
    JavaPairRDD<Long, String> refs = numbered(sc, refUri, "--ref");
    JavaPairRDD<Long, Tuple2<Integer, String>> hyps = null;
    for (int s = 0; s < hypUris.size(); s++) {
      int system = s;
      JavaPairRDD<Long, Tuple2<Integer, String>> one = numbered(sc, hypUris.get(s), "--hyp").mapValues(line -> new Tuple2<>(system, line));
      hyps = hyps == null ? one : hyps.union(one);
    }
    int systems = hypUris.size();
    // One sum per partition, counted with one set of n-gram tables: nothing is allocated per line but the statistics.
    return refs.cogroup(hyps).values()
        .mapPartitions(lines -> {
          Ngrams ngrams = new Ngrams();
          List<CorpusStats> sum = none(systems);
          while (lines.hasNext()) {
            Tuple2<Iterable<String>, Iterable<Tuple2<Integer, String>>> line = lines.next();
            sum = plus(sum, statsOf(line._1(), line._2(), systems, ngrams));
          }
          return List.of(sum).iterator();
        })
        .fold(none(systems), EvaluateJob::plus);
  }

  /** (line number, line). */
  private static JavaPairRDD<Long, String> numbered(JavaSparkContext sc, String uri, String option) {
    return HadoopLines.read(sc, uri, option).zipWithIndex().mapToPair(Tuple2::swap);
  }

  /** The statistics of one line number for every system: the reference line (if any) against each system's line (if any). */
  private static List<CorpusStats> statsOf(Iterable<String> refLine, Iterable<Tuple2<Integer, String>> hypLines, int systems,
      Ngrams ngrams) {
    String ref = refLine.iterator().hasNext() ? refLine.iterator().next() : null;
    String[] hyp = new String[systems];
    hypLines.forEach(h -> hyp[h._1()] = h._2());
    List<CorpusStats> stats = new ArrayList<>(systems);
    for (String h : hyp) {
      stats.add(h != null && ref != null ? CorpusStats.pair(h, ref, ngrams) : CorpusStats.unpaired(h != null));
    }
    return stats;
  }

  private static List<CorpusStats> none(int systems) {
    List<CorpusStats> none = new ArrayList<>(systems);
    for (int s = 0; s < systems; s++) {
      none.add(CorpusStats.empty());
    }
    return none;
  }

  private static List<CorpusStats> plus(List<CorpusStats> a, List<CorpusStats> b) {
    List<CorpusStats> sum = new ArrayList<>(a.size());
    for (int s = 0; s < a.size(); s++) {
      sum.add(a.get(s).plus(b.get(s)));
    }
    return sum;
  }
}
