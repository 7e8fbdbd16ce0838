package org.sparknmt.model.decode;

/**
 * The target tokens a search's steps score: the whole vocabulary, or the candidates of a {@link Shortlist},
 * whose logits a step holds in ascending token order (column j: token ids[j]). Continuations are chosen among
 * those columns and mapped back to token ids before the beams see them.
 */
final class StepTokens {
  private final int[] ids;
  private final int[] columns;

  private StepTokens(int[] ids, int[] columns) {
    this.ids = ids;
    this.columns = columns;
  }

  /** Every token of the vocabulary: columns are token ids. */
  static StepTokens all() {
    return new StepTokens(null, null);
  }

  /** The ascending token ids of a shortlist's candidates, in a vocabulary of vocabSize tokens. */
  static StepTokens of(int[] ids, int vocabSize) {
    int[] columns = new int[vocabSize];
    java.util.Arrays.fill(columns, -1);
    for (int j = 0; j < ids.length; j++) {
      columns[ids[j]] = j;
    }
    return new StepTokens(ids.clone(), columns);
  }

  /** Whether steps score every token. */
  boolean whole() {
    return ids == null;
  }

  /** The candidates' token ids, ascending (only when not {@link #whole}). */
  int[] ids() {
    return ids.clone();
  }

  /** The logits column of a token, or −1 for a token not scored; a forced token (−1: none) stays −1. */
  int column(int token) {
    return token < 0 || ids == null ? token : columns[token];
  }

  /** The continuations with columns turned into token ids. */
  NextTokens tokens(NextTokens byColumn) {
    if (ids == null) {
      return byColumn;
    }
    int[][] tokens = new int[byColumn.tokens().length][];
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] = new int[byColumn.tokens()[i].length];
      for (int j = 0; j < tokens[i].length; j++) {
        tokens[i][j] = ids[byColumn.tokens()[i][j]];
      }
    }
    return new NextTokens(tokens, byColumn.logProbabilities());
  }
}
