package org.sparknmt.model.decode;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.infer.VectorMath;

/**
 * What a beam needs of the output distribution: the k most probable next tokens of each hypothesis and
 * their log-probabilities, best first.
 *
 * @param tokens [hypotheses][k] token ids
 * @param logProbabilities [hypotheses][k] log p of those tokens
 */
record NextTokens(int[][] tokens, float[][] logProbabilities) {

  /**
   * The k best tokens of each row of logits [n, vocab] (float, contiguous row by row), or the one token
   * forced[i] of row i where it is not −1: the top k of the logits z (their order is the order of the
   * log-probabilities), log p = z − log Σ exp z, with Σ exp(z − max) summed on vector registers
   * ({@link VectorMath#sumExp}). Both read the logits where ND4J wrote them, a row at a time, so the row's
   * second pass finds it in cache. (ND4J's top_k and logsumexp ops, and its scalar element-wise exp and row
   * sums, cost many times these two passes over a step's logits.)
   */
  static NextTokens of(INDArray logits, int k, int[] forced) {
    int n = (int) logits.size(0);
    int vocab = (int) logits.size(1);
    // a heap copy of a step's logits would be a humongous object for G1 at every step
    ByteBuffer z = VectorMath.buffer(logits);
    int[][] tokens = new int[n][];
    float[][] logProbabilities = new float[n][];
    for (int i = 0; i < n; i++) {
      int row = i * vocab;
      int[] best = TopK.indices(z, row, vocab, forced[i] < 0 ? k : 1);
      tokens[i] = forced[i] < 0 ? best : new int[] {forced[i]};
      float logNormalizer = logNormalizer(z, row, vocab, z.getFloat(4 * (row + best[0])));
      logProbabilities[i] = new float[tokens[i].length];
      for (int j = 0; j < tokens[i].length; j++) {
        logProbabilities[i][j] = z.getFloat(4 * (row + tokens[i][j])) - logNormalizer;
      }
    }
    return new NextTokens(tokens, logProbabilities);
  }

  /** Logits [n, tokens] in float, contiguous row by row, as {@link #of} reads them. */
  static INDArray floatRows(INDArray logits) {
    INDArray floats = logits.castTo(DataType.FLOAT);
    return floats.isView() || floats.ordering() != 'c' ? floats.dup('c') : floats;
  }

  /** log Σ exp z over the row of logits z[row … row + vocab − 1] whose largest value is max. */
  static float logNormalizer(ByteBuffer z, int row, int vocab, float max) {
    return (float) Math.log(VectorMath.sumExp(z, row, vocab, max)) + max;
  }

  /** Rows from (inclusive) to (exclusive): one sentence's hypotheses. */
  NextTokens rows(int from, int to) {
    return new NextTokens(Arrays.copyOfRange(tokens, from, to), Arrays.copyOfRange(logProbabilities, from, to));
  }
}
