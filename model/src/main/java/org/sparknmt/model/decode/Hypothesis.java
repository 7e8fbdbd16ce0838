package org.sparknmt.model.decode;

import java.util.Arrays;

/** A partial or finished output: its tokens (BOS first) and summed log-probability. */
public record Hypothesis(int[] tokens, double logProbability) {

  static Hypothesis start(int bos) {
    return new Hypothesis(new int[] {bos}, 0.0);
  }

  Hypothesis extend(int token, double tokenLogProbability) {
    int[] next = Arrays.copyOf(tokens, tokens.length + 1);
    next[tokens.length] = token;
    return new Hypothesis(next, logProbability + tokenLogProbability);
  }

  /** The output length as scored: tokens after BOS (EOS included). */
  int length() {
    return tokens.length - 1;
  }

  /** The output without BOS and a final EOS. */
  int[] output(int eos) {
    int end = tokens[tokens.length - 1] == eos ? tokens.length - 1 : tokens.length;
    return Arrays.copyOfRange(tokens, 1, end);
  }
}
