package org.sparknmt.common.vocab;

import java.util.HashMap;
import java.util.Map;

/**
 * What BPE is learned from: the most frequent words of the training side with their counts, at most a
 * bounded number of them ({@code data.vocab_max_words}), and the character counts over every word,
 * pruned or not, so the alphabet is that of the whole corpus. A web-crawled corpus has tens of millions
 * of word types, most seen once; the pruned ones add little to any pair count (subword-nmt's and
 * fastBPE's tables keep them all, and need the memory to match).
 *
 * @param words the words learned from, each a space-free word of normalized text, with its count
 * @param characters the occurrences of each code point (the word marker left out) over all words
 * @param types the number of distinct words counted, pruned ones included
 */
public record WordCounts(Map<String, Long> words, Map<Integer, Long> characters, long types) {

  /** A whole table, nothing pruned (tests and small corpora counted in one JVM). */
  public static WordCounts of(Map<String, Long> words) {
    Map<Integer, Long> characters = new HashMap<>();
    for (Map.Entry<String, Long> entry : words.entrySet()) {
      for (int cp : characters(entry.getKey())) {
        characters.merge(cp, entry.getValue(), Long::sum);
      }
    }
    return new WordCounts(words, characters, words.size());
  }

  /** The code points of a word that the alphabet counts: all but the word marker, one per occurrence. */
  public static int[] characters(String word) {
    return word.codePoints().filter(cp -> cp != SpecialTokens.WORD_CHAR).toArray();
  }
}
