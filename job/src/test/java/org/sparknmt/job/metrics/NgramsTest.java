package org.sparknmt.job.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

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
}
