package org.sparknmt.translate;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.model.decode.Shortlist;
import scala.Tuple2;

/**
 * Builds a run's vocabulary shortlist from its prepared training pairs ({@code RUN/data}, as train reads them):
 * for each source token the K target tokens with the highest Dice coefficient of sentence-level co-occurrence,
 * 2·c(s, t) / (c(s) + c(t)), where c counts the training pairs whose source holds s, whose target holds t, or
 * both; and the N target tokens that occur most often. Dice rather than the conditional P(t | s) = c(s, t) / c(s)
 * because co-occurrence without alignment makes P(t | s) rank the most frequent targets ("a", "ein", ".") first
 * for every source token, and those are kept anyway; Dice divides by c(t) and ranks first the target that
 * occurs where s occurs and rarely elsewhere, the translation (the association score of Och and Ney 2003's
 * heuristic alignment baseline; Marian's lexical shortlists rank fast_align's p(t | s) instead, which needs the
 * word alignments this job does without). The pairs are counted on the executors; the driver receives the
 * token counts (3 numbers a vocabulary entry) and at most K targets a source token.
 */
public final class ShortlistJob {
  /** The ranking's name in the file. */
  public static final String SCORE = "dice";

  private ShortlistJob() {}

  /** The shortlist of run runUri's training pairs, top targets a source token and the frequent most frequent targets. */
  public static ShortlistFile run(JavaSparkContext sc, String runUri, int top, int frequent) throws IOException {
    PreparedData data = PreparedData.open(runUri, sc.hadoopConfiguration());
    int vocab = data.vocabulary().size();
    JavaRDD<int[][]> sentences = data.batches(sc, Split.TRAIN)
        .flatMap(batch -> batch.pairs().stream()
            .map(p -> new int[][] {distinct(p.source()), distinct(p.target()), p.target()}).iterator())
        .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      Counts counts = sentences.treeAggregate(new Counts(vocab), Counts::add, Counts::merge);
      Broadcast<Counts> shared = sc.broadcast(counts);
      List<Tuple2<Integer, Best>> best = sentences
          .flatMapToPair(sentence -> {
            List<Tuple2<Long, Long>> pairs = new ArrayList<>(sentence[0].length * sentence[1].length);
            for (int s : sentence[0]) {
              for (int t : sentence[1]) {
                pairs.add(new Tuple2<>((long) s * vocab + t, 1L));
              }
            }
            return pairs.iterator();
          })
          .reduceByKey(Long::sum)
          .mapToPair(e -> {
            int s = (int) (e._1() / vocab);
            int t = (int) (e._1() % vocab);
            Counts c = shared.value();
            return new Tuple2<>(s, new Candidate(t, e._2(), 2.0 * e._2() / (c.sources[s] + c.targets[t])));
          })
          .aggregateByKey(new Best(top), Best::add, Best::merge)
          .collect();
      shared.destroy();
      int[][] bySource = new int[vocab][];
      for (Tuple2<Integer, Best> b : best) {
        bySource[b._1()] = b._2().targets();
      }
      int[] always = IntStream.range(0, vocab).boxed()
          .filter(t -> counts.occurrences[t] > 0)
          .sorted(Comparator.<Integer>comparingLong(t -> -counts.occurrences[t]).thenComparingInt(t -> t))
          .limit(frequent).mapToInt(Integer::intValue).toArray();
      return new ShortlistFile(data.vocabularySha256(), SCORE, top, frequent, new Shortlist(vocab, bySource, always));
    } finally {
      sentences.unpersist();
    }
  }

  private static int[] distinct(int[] tokens) {
    return Arrays.stream(tokens).distinct().toArray();
  }

  /** Per token: the pairs whose source holds it, whose target holds it, and its occurrences in targets. */
  static final class Counts implements Serializable {
    private static final long serialVersionUID = 1L;
    final long[] sources;
    final long[] targets;
    final long[] occurrences;

    Counts(int vocab) {
      sources = new long[vocab];
      targets = new long[vocab];
      occurrences = new long[vocab];
    }

    /** Counts a pair {distinct source tokens, distinct target tokens, target tokens}. */
    Counts add(int[][] sentence) {
      for (int s : sentence[0]) {
        sources[s]++;
      }
      for (int t : sentence[1]) {
        targets[t]++;
      }
      for (int t : sentence[2]) {
        occurrences[t]++;
      }
      return this;
    }

    Counts merge(Counts other) {
      for (int i = 0; i < sources.length; i++) {
        sources[i] += other.sources[i];
        targets[i] += other.targets[i];
        occurrences[i] += other.occurrences[i];
      }
      return this;
    }
  }

  /** A target token of a source token, with their co-occurrence count and Dice coefficient. */
  record Candidate(int target, long together, double dice) implements Serializable {
    /** Higher Dice first, then more co-occurrences, then the lower id: one order wherever it is computed. */
    static final Comparator<Candidate> BEST_FIRST = Comparator.comparingDouble(Candidate::dice).reversed()
        .thenComparing(Comparator.comparingLong(Candidate::together).reversed())
        .thenComparingInt(Candidate::target);
  }

  /** The best k candidates of a source token so far. */
  static final class Best implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int k;
    private final List<Candidate> kept = new ArrayList<>();

    Best(int k) {
      this.k = k;
    }

    Best add(Candidate c) {
      kept.add(c);
      // sorting once per k additions rather than at each
      return kept.size() >= 2 * k ? trimmed() : this;
    }

    Best merge(Best other) {
      kept.addAll(other.kept);
      return trimmed();
    }

    private Best trimmed() {
      kept.sort(Candidate.BEST_FIRST);
      while (kept.size() > k) {
        kept.remove(kept.size() - 1);
      }
      return this;
    }

    int[] targets() {
      return trimmed().kept.stream().mapToInt(Candidate::target).toArray();
    }
  }
}
