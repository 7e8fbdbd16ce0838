package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;

class LongSentencesTest {
  /** Letters a-z and no merges: a word of n letters is n + 1 subwords ("▁" and its letters). */
  private static final BpeModel LETTERS = new BpeModel(IntStream.rangeClosed('a', 'z').toArray(), new int[0][], true);
  private final BpeEncoder encoder = new BpeEncoder(LETTERS);

  @Test
  void aSentenceWithinTheLimitIsOnePiece() {
    int[] ids = encoder.encode("abc de");
    List<int[]> pieces = LongSentences.pieces(ids, ids.length, LETTERS);
    assertEquals(1, pieces.size());
    assertSame(ids, pieces.get(0));
  }

  @Test
  void cutsBeforeTheLastWordStartWithinTheLimit() {
    // ▁abc ▁de ▁fghij: 4 + 3 + 6 subwords
    List<int[]> pieces = LongSentences.pieces(encoder.encode("abc de fghij"), 6, LETTERS);
    assertEquals(List.of("abc", "de", "fghij"), pieces.stream().map(encoder::decode).toList());
  }

  @Test
  void aWordLongerThanTheLimitIsCutInside() {
    int[] ids = encoder.encode("ab cdefghijk");
    List<int[]> pieces = LongSentences.pieces(ids, 4, LETTERS);
    assertEquals(List.of(3, 4, 4, 2), pieces.stream().map(p -> p.length).toList());
    assertArrayEquals(ids, pieces.stream().flatMapToInt(java.util.Arrays::stream).toArray(), "no subword lost or repeated");
  }
}
