package org.sparknmt.common.vocab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Learns BPE merges from a word-frequency table (Sennrich et al. 2016, Algorithm 1), the way
 * subword-nmt does, with each word cut into runs of one {@link CharacterClasses character class} that
 * merges never cross: the table is what the executors count ({@link WordCounts}), so only it reaches the driver. Each step
 * merges the most frequent adjacent pair, ties broken by the smaller (left, right) ids, so the
 * result depends only on the table. Pair counts are updated incrementally in the words that hold
 * the merged pair.
 */
public final class BpeLearner {
  private BpeLearner() {}

  /**
   * @param counts the words (space-free, of normalized text) and characters to learn from
   * @param vocabSize the size of the vocabulary to reach (fewer when no pair occurs twice)
   * @param characterCoverage the share of character occurrences the alphabet must cover
   */
  public static BpeModel learn(WordCounts counts, int vocabSize, double characterCoverage) {
    TreeMap<String, Long> sorted = new TreeMap<>(counts.words());
    int[] alphabet = alphabet(counts.characters(), vocabSize - SpecialTokens.FIRST_CHAR, characterCoverage);
    Map<Integer, Integer> charIds = new HashMap<>();
    for (int i = 0; i < alphabet.length; i++) {
      charIds.put(alphabet[i], SpecialTokens.FIRST_CHAR + i);
    }
    List<int[]> words = new ArrayList<>();
    List<Long> freq = new ArrayList<>();
    for (Map.Entry<String, Long> entry : sorted.entrySet()) {
      List<String> runs = CharacterClasses.runs(entry.getKey());
      for (int r = 0; r < runs.size(); r++) {
        words.add(symbols(runs.get(r), r == 0, charIds));
        freq.add(entry.getValue());
      }
    }
    int merges = Math.max(0, vocabSize - SpecialTokens.FIRST_CHAR - alphabet.length);
    PairMerger merger = new PairMerger(words.toArray(int[][]::new), freq.stream().mapToLong(Long::longValue).toArray());
    return new BpeModel(alphabet, merger.learn(merges, SpecialTokens.FIRST_CHAR + alphabet.length), true);
  }

  /** The most frequent characters covering the share asked for, most frequent first, at most {@code limit}. */
  static int[] alphabet(Map<Integer, Long> counts, int limit, double coverage) {
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    List<Map.Entry<Integer, Long>> byCount = new ArrayList<>(counts.entrySet());
    byCount.sort(Map.Entry.<Integer, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    int[] alphabet = new int[Math.min(limit, byCount.size())];
    long covered = 0;
    int n = 0;
    while (n < alphabet.length && covered < coverage * total) {
      alphabet[n] = byCount.get(n).getKey();
      covered += byCount.get(n++).getValue();
    }
    return Arrays.copyOf(alphabet, n);
  }

  /**
   * BPE's starting symbols of a run of characters, for learning and encoding alike: one id per
   * character, after the word marker when the run starts its word; a character outside the alphabet is
   * -(code point + 1), negative so that it never merges and the encoder can spell it out in bytes.
   */
  static int[] symbols(String run, boolean wordStart, Map<Integer, Integer> charIds) {
    int[] symbols = new int[run.codePointCount(0, run.length()) + (wordStart ? 1 : 0)];
    int n = 0;
    if (wordStart) {
      symbols[n++] = SpecialTokens.WORD;
    }
    for (int i = 0; i < run.length(); ) {
      int cp = run.codePointAt(i);
      i += Character.charCount(cp);
      Integer id = charIds.get(cp);
      symbols[n++] = id != null ? id : -(cp + 1);
    }
    return symbols;
  }

  /** The merge loop over symbol sequences with incrementally maintained pair counts. */
  private static final class PairMerger {
    private final int[][] words;
    private final long[] freq;
    private final Map<Long, Long> pairCounts = new HashMap<>();
    private final Map<Long, List<Integer>> wordsWithPair = new HashMap<>();
    /** Entries {count, pair}; stale ones (count no longer current) are skipped when polled. */
    private final PriorityQueue<long[]> queue = new PriorityQueue<>(
        Comparator.<long[]>comparingLong(e -> -e[0]).thenComparingLong(e -> e[1]));
    private final int[] visited;

    PairMerger(int[][] words, long[] freq) {
      this.words = words;
      this.freq = freq;
      this.visited = new int[words.length];
      Arrays.fill(visited, -1);
      for (int w = 0; w < words.length; w++) {
        for (long pair : pairsOf(words[w])) {
          pairCounts.merge(pair, freq[w], Long::sum);
          List<Integer> holders = wordsWithPair.computeIfAbsent(pair, k -> new ArrayList<>());
          if (holders.isEmpty() || holders.get(holders.size() - 1) != w) {
            holders.add(w);
          }
        }
      }
      pairCounts.forEach((pair, count) -> queue.add(new long[] {count, pair}));
    }

    int[][] learn(int merges, int firstId) {
      List<int[]> learned = new ArrayList<>();
      while (learned.size() < merges) {
        long[] best = queue.poll();
        if (best == null) {
          break;
        }
        if (pairCounts.getOrDefault(best[1], 0L) != best[0]) {
          continue;
        }
        if (best[0] < 2) {
          break;
        }
        int step = learned.size();
        learned.add(new int[] {left(best[1]), right(best[1])});
        apply(best[1], firstId + step, step);
      }
      return learned.toArray(int[][]::new);
    }

    /** Merges {@code pair} in every word holding it; only pairs whose count changed go back on the queue. */
    private void apply(long pair, int newId, int step) {
      Map<Long, Long> delta = new HashMap<>();
      for (int w : wordsWithPair.remove(pair)) {
        if (visited[w] == step) {
          continue;
        }
        visited[w] = step;
        int[] merged = replace(words[w], left(pair), right(pair), newId);
        if (merged == words[w]) {
          continue;
        }
        for (long p : pairsOf(words[w])) {
          delta.merge(p, -freq[w], Long::sum);
        }
        words[w] = merged;
        for (long p : pairsOf(merged)) {
          delta.merge(p, freq[w], Long::sum);
          if (left(p) == newId || right(p) == newId) {
            List<Integer> holders = wordsWithPair.computeIfAbsent(p, k -> new ArrayList<>());
            if (holders.isEmpty() || holders.get(holders.size() - 1) != w) {
              holders.add(w);
            }
          }
        }
      }
      pairCounts.remove(pair);
      delta.remove(pair);
      for (Map.Entry<Long, Long> change : delta.entrySet()) {
        if (change.getValue() != 0) {
          long count = pairCounts.merge(change.getKey(), change.getValue(), Long::sum);
          if (count <= 0) {
            pairCounts.remove(change.getKey());
          } else {
            queue.add(new long[] {count, change.getKey()});
          }
        }
      }
    }

    private static long[] pairsOf(int[] s) {
      long[] pairs = new long[Math.max(0, s.length - 1)];
      int n = 0;
      for (int i = 0; i + 1 < s.length; i++) {
        if (s[i] >= 0 && s[i + 1] >= 0) {
          pairs[n++] = key(s[i], s[i + 1]);
        }
      }
      return Arrays.copyOf(pairs, n);
    }

    /** Left-to-right, non-overlapping replacement of (a, b) by {@code id}; the same array when absent. */
    private static int[] replace(int[] s, int a, int b, int id) {
      int[] out = null;
      int n = 0;
      for (int i = 0; i < s.length; i++) {
        if (i + 1 < s.length && s[i] == a && s[i + 1] == b) {
          if (out == null) {
            out = Arrays.copyOf(s, s.length);
            n = i;
          }
          out[n++] = id;
          i++;
        } else if (out != null) {
          out[n++] = s[i];
        }
      }
      return out == null ? s : Arrays.copyOf(out, n);
    }
  }

  static long key(int left, int right) {
    return ((long) left << 32) | right;
  }

  static int left(long key) {
    return (int) (key >>> 32);
  }

  static int right(long key) {
    return (int) key;
  }
}
