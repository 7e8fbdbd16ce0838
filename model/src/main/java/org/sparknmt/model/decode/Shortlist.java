package org.sparknmt.model.decode;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A vocabulary shortlist (Marian's {@code --shortlist}, CTranslate2's vocabulary map): for each source token
 * the target tokens it is likely to be translated into, and tokens every search may emit (the most frequent
 * targets). A search of a batch scores only the union of its sources' entries, the tokens always kept, the
 * control tokens and its forced prefixes' tokens ({@link #candidates}), so the output projection and the
 * softmax cover those rows of the vocabulary alone.
 */
public final class Shortlist implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int vocabSize;
  private final int[][] bySource;
  private final int[] always;

  /**
   * @param bySource the target tokens of source token s at bySource[s] (null or empty: none); at most vocabSize rows
   * @param always the target tokens kept for every batch
   * @throws IllegalArgumentException when a token id is outside the vocabulary
   */
  public Shortlist(int vocabSize, int[][] bySource, int[] always) {
    if (vocabSize <= 0 || bySource.length > vocabSize) {
      throw new IllegalArgumentException("a shortlist of " + bySource.length + " source tokens for a vocabulary of "
          + vocabSize);
    }
    this.vocabSize = vocabSize;
    this.bySource = new int[bySource.length][];
    for (int s = 0; s < bySource.length; s++) {
      this.bySource[s] = checked(bySource[s] == null ? new int[0] : bySource[s].clone(), "source token " + s);
    }
    this.always = checked(always.clone(), "the tokens always kept");
  }

  /** The shortlist that keeps every token: a search with it scores what a search without one scores. */
  public static Shortlist whole(int vocabSize) {
    int[] all = new int[vocabSize];
    Arrays.setAll(all, i -> i);
    return new Shortlist(vocabSize, new int[0][], all);
  }

  private int[] checked(int[] ids, String what) {
    for (int id : ids) {
      if (id < 0 || id >= vocabSize) {
        throw new IllegalArgumentException(what + ": target token " + id + " is outside the vocabulary of "
            + vocabSize + " tokens");
      }
    }
    return ids;
  }

  public int vocabSize() {
    return vocabSize;
  }

  /** The target tokens of source token s (none for a token the shortlist has no row for). */
  public int[] targets(int s) {
    return s < bySource.length ? bySource[s].clone() : new int[0];
  }

  /** The target tokens kept for every batch. */
  public int[] always() {
    return always.clone();
  }

  /**
   * The target tokens a search of these sources scores, ascending: the entries of every source token, the
   * tokens always kept, the control tokens and every token of the prefixes (null, or null rows: none), which a
   * search emits whatever their score.
   */
  public int[] candidates(int[][] sources, int[][] prefixes, ControlTokens tokens) {
    boolean[] kept = new boolean[vocabSize];
    for (int t : always) {
      kept[t] = true;
    }
    kept[tokens.pad()] = true;
    kept[tokens.bos()] = true;
    kept[tokens.eos()] = true;
    for (int[] source : sources) {
      for (int s : source) {
        if (s < bySource.length) {
          for (int t : bySource[s]) {
            kept[t] = true;
          }
        }
      }
    }
    if (prefixes != null) {
      for (int[] prefix : prefixes) {
        for (int t : prefix == null ? new int[0] : prefix) {
          kept[t] = true;
        }
      }
    }
    return java.util.stream.IntStream.range(0, vocabSize).filter(t -> kept[t]).toArray();
  }
}
