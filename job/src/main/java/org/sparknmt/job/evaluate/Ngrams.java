package org.sparknmt.job.evaluate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** N-gram counting shared by BLEU (word n-grams) and chrF (character n-grams). */
public final class Ngrams {
  private Ngrams() {}

  /** Counts of the word n-grams of order {@code n}, each keyed by its tokens joined with one space. */
  public static Map<String, Integer> words(List<String> tokens, int n) {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i + n <= tokens.size(); i++) {
      counts.merge(String.join(" ", tokens.subList(i, i + n)), 1, Integer::sum);
    }
    return counts;
  }

  /** Counts of the character n-grams of order {@code n}, characters being Unicode code points. */
  public static Map<String, Integer> chars(int[] codePoints, int n) {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i + n <= codePoints.length; i++) {
      counts.merge(new String(codePoints, i, n), 1, Integer::sum);
    }
    return counts;
  }

  /** The number of n-grams counted, repeats included. */
  public static long total(Map<String, Integer> counts) {
    long total = 0;
    for (int count : counts.values()) {
      total += count;
    }
    return total;
  }

  /** Clipped matches: each hypothesis n-gram counts at most as often as it occurs in the reference. */
  public static long matches(Map<String, Integer> hyp, Map<String, Integer> ref) {
    long matches = 0;
    for (Map.Entry<String, Integer> e : hyp.entrySet()) {
      Integer inRef = ref.get(e.getKey());
      if (inRef != null) {
        matches += Math.min(e.getValue(), inRef);
      }
    }
    return matches;
  }
}
