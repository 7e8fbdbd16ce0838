package org.sparknmt.model.decode;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.sparknmt.model.nn.Transformer;

/**
 * What a beam needs of the output distribution: the k most probable next tokens of each hypothesis and
 * their log-probabilities, best first.
 *
 * @param tokens [hypotheses][k] token ids
 * @param logProbabilities [hypotheses][k] log p of those tokens
 */
record NextTokens(int[][] tokens, float[][] logProbabilities) {

  /**
   * The k best tokens of each decoder state [n, d_model]: the top k of the logits z (their order is
   * the order of the log-probabilities), log p = z − log Σ exp z. The normalizer is computed in ND4J;
   * the logits leave it in one bulk copy and the top k is found in Java. (Measured on [128, 8000]:
   * ND4J's top_k op took 365 ms and its logsumexp op 81 ms, the copy and the Java top 8 3 ms, the
   * normalizer from max, exp, sum and log 7 ms.)
   */
  static NextTokens of(Transformer model, INDArray states, int k) {
    INDArray logits = model.logits(states).castTo(DataType.FLOAT);
    if (logits.isView() || logits.ordering() != 'c') {
      logits = logits.dup('c');
    }
    INDArray max = logits.max(true, 1);
    INDArray logNormalizer = Transforms.log(Transforms.exp(logits.subColumnVector(max), false).sum(true, 1), false)
        .addi(max);
    float[] normalizers = logNormalizer.toFloatVector();
    float[] z = logits.data().asFloat();
    int vocab = (int) logits.size(1);
    int[][] tokens = new int[normalizers.length][];
    float[][] logProbabilities = new float[normalizers.length][];
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] = TopK.indices(z, i * vocab, vocab, k);
      logProbabilities[i] = new float[tokens[i].length];
      for (int j = 0; j < tokens[i].length; j++) {
        logProbabilities[i][j] = z[i * vocab + tokens[i][j]] - normalizers[i];
      }
    }
    return new NextTokens(tokens, logProbabilities);
  }

  /** Rows from (inclusive) to (exclusive): one sentence's hypotheses. */
  NextTokens rows(int from, int to) {
    return new NextTokens(Arrays.copyOfRange(tokens, from, to), Arrays.copyOfRange(logProbabilities, from, to));
  }
}
