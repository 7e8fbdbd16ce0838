package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NgramsTest {
  @Test
  void clipsRepeatedNgramsToTheirCountInTheReference() {
    // hyp "a a a b", ref "a a b b": 1-grams a:min(3,2) + b:min(1,2) = 3; 2-grams aa:min(2,1) + ab:1 = 2;
    // 3-grams aaa:0, aab:min(1,1) = 1; 4-grams aaab vs aabb: 0.
    long[] stats = Ngrams.clipped(new int[] {0, 0, 0, 1}, new int[] {0, 0, 1, 1}, 4);
    assertArrayEquals(new long[] {4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0}, stats);
  }

  @Test
  void ordersLongerThanASequenceHaveNoNgrams() {
    assertArrayEquals(new long[] {2, 1, 1, 1, 0, 0, 0, 0, 0}, Ngrams.clipped(new int[] {5, 6}, new int[] {5}, 3));
    assertArrayEquals(new long[] {0, 0, 0, 0, 0, 0}, Ngrams.clipped(new int[0], new int[0], 2));
  }

  @Test
  void distinguishesNgramsThatShareSymbolsInAnotherOrder() {
    // "ab" and "ba" are different 2-grams; code points beyond the BMP work as symbols.
    int x = 0x1F600;
    long[] stats = Ngrams.clipped(new int[] {'a', x, 'a'}, new int[] {x, 'a', x}, 3);
    assertArrayEquals(new long[] {3, 3, 2, 2, 2, 2, 1, 1, 0}, stats);
  }

  @Test
  void oneInstanceCountsLineAfterLineAsCountingEachAloneByName() {
    // The reference count: every n-gram as a string key; one Ngrams reused over lines of growing and
    // shrinking length (its tables are kept) must agree with it on every line.
    Random random = new Random(7);
    Ngrams ngrams = new Ngrams();
    for (int line = 0; line < 1_000; line++) {
      int[] hyp = random(random, random.nextInt(line % 7 == 0 ? 400 : 30), line % 5 == 0 ? 0x10FFFF : 4);
      int[] ref = random(random, random.nextInt(line % 7 == 0 ? 400 : 30), line % 5 == 0 ? 0x10FFFF : 4);
      long[] stats = new long[3 * 6];
      ngrams.count(hyp, hyp.length, ref, ref.length, 6, stats);
      assertArrayEquals(byName(hyp, ref, 6), stats, Arrays.toString(hyp) + " / " + Arrays.toString(ref));
    }
  }

  private static int[] random(Random random, int length, int symbols) {
    int[] out = new int[length];
    for (int i = 0; i < length; i++) {
      out[i] = random.nextInt(symbols);
    }
    return out;
  }

  private static long[] byName(int[] hyp, int[] ref, int maxOrder) {
    long[] stats = new long[3 * maxOrder];
    for (int n = 1; n <= maxOrder; n++) {
      Map<String, Integer> hypCounts = counts(hyp, n);
      Map<String, Integer> refCounts = counts(ref, n);
      stats[3 * (n - 1)] = Math.max(0, hyp.length - n + 1);
      stats[3 * (n - 1) + 1] = Math.max(0, ref.length - n + 1);
      for (Map.Entry<String, Integer> e : hypCounts.entrySet()) {
        stats[3 * (n - 1) + 2] += Math.min(e.getValue(), refCounts.getOrDefault(e.getKey(), 0));
      }
    }
    return stats;
  }

  private static Map<String, Integer> counts(int[] symbols, int n) {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i + n <= symbols.length; i++) {
      counts.merge(Arrays.toString(Arrays.copyOfRange(symbols, i, i + n)), 1, Integer::sum);
    }
    return counts;
  }
}
