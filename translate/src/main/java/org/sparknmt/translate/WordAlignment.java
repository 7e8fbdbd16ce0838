package org.sparknmt.translate;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.sparknmt.common.vocab.BpeModel;

/**
 * The Pharaoh alignment of a line from the subword alignments of its pieces: subword positions become word
 * indices (a word starts at a subword beginning with "▁", and at a piece's first subword), each piece's
 * words counted after the words of the pieces before it, and pairs repeated by a word's several subwords
 * written once, in target order.
 */
final class WordAlignment {
  private final BpeModel vocabulary;
  // target word << 32 | source word: ascending is target order, then source order
  private final TreeSet<Long> pairs = new TreeSet<>();
  private int sourceWords;
  private int targetWords;

  WordAlignment(BpeModel vocabulary) {
    this.vocabulary = vocabulary;
  }

  /**
   * @param source the piece's ids, EOS last
   * @param output its translation's ids, without EOS
   * @param aligned for each output subword, the source subword it aligns to, or −1
   */
  void add(int[] source, int[] output, int[] aligned) {
    int[] sourceWord = words(source, source.length - 1);
    int[] targetWord = words(output, output.length);
    for (int j = 0; j < output.length; j++) {
      if (aligned[j] >= 0) {
        pairs.add(((long) (targetWords + targetWord[j]) << 32) | (sourceWords + sourceWord[aligned[j]]));
      }
    }
    sourceWords += count(sourceWord);
    targetWords += count(targetWord);
  }

  /** The pairs as Pharaoh's {@code source-target} word indices, space-separated. */
  String pharaoh() {
    List<String> out = new ArrayList<>(pairs.size());
    for (long pair : pairs) {
      out.add((int) pair + "-" + (int) (pair >>> 32));
    }
    return String.join(" ", out);
  }

  /** The word index of each of the first n subwords of ids. */
  private int[] words(int[] ids, int n) {
    int[] word = new int[n];
    for (int k = 1; k < n; k++) {
      word[k] = word[k - 1] + (LongSentences.startsWord(ids[k], vocabulary) ? 1 : 0);
    }
    return word;
  }

  private static int count(int[] word) {
    return word.length == 0 ? 0 : word[word.length - 1] + 1;
  }
}
