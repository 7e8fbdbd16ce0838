package org.sparknmt.translate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.common.vocab.SpecialTokens;

/**
 * The rule for sources longer than the model's positions: a sentence of more than {@code limit}
 * subwords is cut into pieces of at most {@code limit} subwords, each cut placed before the last
 * word start that keeps the piece within the limit (inside a word only when one word alone is
 * longer than the limit). The pieces are translated separately and their translations joined with
 * a space.
 *
 * <p>Before any of that, a line is capped at {@link #maxChars} characters: BPE's merge is quadratic
 * in the length of a word and every piece costs a search, so one megabyte of text without a space
 * would stall a whole batch; what lies beyond the cap is dropped, with a warning.
 */
final class LongSentences {
  /** Characters a line may have for each position of a source piece: far beyond any real sentence. */
  static final int CHARS_PER_POSITION = 8;

  private LongSentences() {}

  /** The longest line translated, in characters, for pieces of {@code limit} subwords. */
  static int maxChars(int limit) {
    return CHARS_PER_POSITION * limit;
  }

  /** {@code line} itself when it has at most {@code maxChars} characters, else its first {@code maxChars} (never half a surrogate pair). */
  static String capped(String line, int maxChars) {
    if (line.length() <= maxChars) {
      return line;
    }
    int end = Character.isHighSurrogate(line.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    return line.substring(0, end);
  }

  /** {@code ids} itself when it fits, else its pieces in order. */
  static List<int[]> pieces(int[] ids, int limit, BpeModel vocabulary) {
    if (limit < 1) {
      throw new IllegalArgumentException("piece limit must be positive, got " + limit);
    }
    List<int[]> pieces = new ArrayList<>();
    int start = 0;
    while (ids.length - start > limit) {
      int cut = start + limit;
      while (cut > start + 1 && !startsWord(ids[cut], vocabulary)) {
        cut--;
      }
      if (cut == start + 1 && !startsWord(ids[cut], vocabulary)) {
        cut = start + limit;
      }
      pieces.add(Arrays.copyOfRange(ids, start, cut));
      start = cut;
    }
    pieces.add(start == 0 ? ids : Arrays.copyOfRange(ids, start, ids.length));
    return pieces;
  }

  /** Whether subword {@code id} begins a word: its piece starts with the marker "▁". */
  static boolean startsWord(int id, BpeModel vocabulary) {
    return id >= SpecialTokens.WORD && id < vocabulary.size()
        && vocabulary.piece(id).codePointAt(0) == SpecialTokens.WORD_CHAR;
  }
}
