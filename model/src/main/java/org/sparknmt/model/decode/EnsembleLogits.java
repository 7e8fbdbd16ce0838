package org.sparknmt.model.decode;

import java.nio.ByteBuffer;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.infer.VectorMath;

/**
 * The step distribution of an ensemble: the mean of its models' log-probabilities, log p = (1/M) Σ log p_m
 * (Marian's ensembles; fairseq averages the probabilities instead). The search reads the mean as logits, so
 * its log-probabilities are the mean renormalized: the normalized geometric mean of the models' distributions.
 */
final class EnsembleLogits {
  private EnsembleLogits() {}

  /**
   * The mean log-probabilities of the models' logits [n, vocab] (float, contiguous; overwritten), or the one
   * model's logits themselves.
   */
  static INDArray mean(INDArray[] logits) {
    if (logits.length == 1) {
      return logits[0];
    }
    INDArray sum = logProbabilities(logits[0]);
    for (int m = 1; m < logits.length; m++) {
      sum.addi(logProbabilities(logits[m]));
    }
    return sum.muli(1.0 / logits.length);
  }

  /** z − log Σ exp z of each row, in place, the normalizer summed as {@link NextTokens#of} sums it. */
  private static INDArray logProbabilities(INDArray logits) {
    int n = (int) logits.size(0);
    int vocab = (int) logits.size(1);
    ByteBuffer z = VectorMath.buffer(logits);
    float[] normalizers = new float[n];
    for (int i = 0; i < n; i++) {
      int row = i * vocab;
      normalizers[i] = NextTokens.logNormalizer(z, row, vocab, z.getFloat(4 * (row + TopK.indices(z, row, vocab, 1)[0])));
    }
    return logits.subiColumnVector(Nd4j.createFromArray(normalizers).reshape(n, 1).castTo(logits.dataType()));
  }
}
