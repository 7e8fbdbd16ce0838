package org.sparknmt.prepare;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.sparknmt.common.vocab.WordCounts;
import scala.Tuple2;

/**
 * Counts the words BPE is learned from on the executors, and sends the driver only a bounded table:
 * the {@code maxWords} most frequent word types (ties broken by the word, so the choice is
 * deterministic), and the character counts of all words (as many entries as distinct code points).
 * Spark's {@code takeOrdered} keeps at most {@code maxWords} entries per partition, so neither the
 * executors' results nor the driver grow with the number of distinct words.
 */
final class WordCounter {
  private WordCounter() {}

  static WordCounts count(JavaRDD<String> words, int maxWords, int partitions) {
    JavaPairRDD<String, Long> counts = words
        .mapToPair(w -> new Tuple2<>(w, 1L))
        .reduceByKey(Long::sum, partitions)
        .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      Map<Integer, Long> characters = counts
          .flatMapToPair(e -> Arrays.stream(WordCounts.characters(e._1))
              .mapToObj(cp -> new Tuple2<>(cp, e._2)).iterator())
          .reduceByKey(Long::sum)
          .collectAsMap();
      long types = counts.count();
      Map<String, Long> top = new HashMap<>();
      for (Tuple2<String, Long> e : counts.takeOrdered(maxWords, new MostFrequentFirst())) {
        top.put(e._1, e._2);
      }
      return new WordCounts(top, new HashMap<>(characters), types);
    } finally {
      counts.unpersist(false);
    }
  }

  /** Count descending, then the word in {@link String#compareTo} order. */
  private static final class MostFrequentFirst implements Comparator<Tuple2<String, Long>>, Serializable {
    @Override
    public int compare(Tuple2<String, Long> a, Tuple2<String, Long> b) {
      int byCount = Long.compare(b._2, a._2);
      return byCount != 0 ? byCount : a._1.compareTo(b._1);
    }
  }
}
