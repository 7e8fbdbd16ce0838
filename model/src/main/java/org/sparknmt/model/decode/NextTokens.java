package org.sparknmt.model.decode;

import java.nio.FloatBuffer;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
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
   * the order of the log-probabilities), log p = z − log Σ exp z. The top k, whose first is the row's
   * maximum, is found in Java, reading the logits where ND4J wrote them; the normalizer
   * Σ exp(z − max) is summed in ND4J, in place. (Measured on [128, 8000]: ND4J's top_k op took 365 ms
   * and its logsumexp op 81 ms. In a profile of beam search, the element-wise copy of the logits out of
   * ND4J and its maximum over rows were each a quarter of this method's samples: BENCHMARKS.md,
   * "Translation: where a search's time went".)
   */
  static NextTokens of(Transformer model, INDArray states, int k) {
    INDArray logits = model.logits(states).castTo(DataType.FLOAT);
    if (logits.isView() || logits.ordering() != 'c') {
      logits = logits.dup('c');
    }
    int n = (int) logits.size(0);
    int vocab = (int) logits.size(1);
    // a copy of the logits was 4 MB of heap per step at 128 hypotheses, collected by G1 as humongous objects
    FloatBuffer z = logits.data().asNioFloat();
    int[][] tokens = new int[n][];
    float[] max = new float[n];
    for (int i = 0; i < n; i++) {
      tokens[i] = TopK.indices(z, i * vocab, vocab, k);
      max[i] = z.get(i * vocab + tokens[i][0]);
    }
    float[][] logProbabilities = new float[n][];
    for (int i = 0; i < n; i++) {
      logProbabilities[i] = new float[tokens[i].length];
      for (int j = 0; j < tokens[i].length; j++) {
        logProbabilities[i][j] = z.get(i * vocab + tokens[i][j]);
      }
    }
    // in place: z is overwritten from here on
    float[] sums = Transforms.exp(logits.subiColumnVector(Nd4j.createFromArray(max).reshape(n, 1)), false)
        .sum(true, 1).toFloatVector();
    for (int i = 0; i < n; i++) {
      float logNormalizer = (float) Math.log(sums[i]) + max[i];
      for (int j = 0; j < tokens[i].length; j++) {
        logProbabilities[i][j] -= logNormalizer;
      }
    }
    return new NextTokens(tokens, logProbabilities);
  }

  /** Rows from (inclusive) to (exclusive): one sentence's hypotheses. */
  NextTokens rows(int from, int to) {
    return new NextTokens(Arrays.copyOfRange(tokens, from, to), Arrays.copyOfRange(logProbabilities, from, to));
  }
}
