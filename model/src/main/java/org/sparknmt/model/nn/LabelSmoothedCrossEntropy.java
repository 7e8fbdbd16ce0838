package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.transforms.custom.SoftMax;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Section 5.4, label smoothing ε_ls: cross-entropy against q = (1 − ε)·onehot(gold) + ε/V, averaged
 * over the non-padding target positions (fairseq's label_smoothed_cross_entropy, normalized per token).
 */
public final class LabelSmoothedCrossEntropy {

  /**
   * @param loss the mean loss per non-padding token (0 when there is none)
   * @param tokens the number of non-padding target tokens
   * @param dLogits dL/d(logits) [n, vocab], or null when not asked for
   */
  public record Result(double loss, double tokens, INDArray dLogits) {}

  private LabelSmoothedCrossEntropy() {}

  /**
   * @param logits [n, vocab]
   * @param gold n gold token ids
   * @param weight [n, 1]: 1 for a real target token, 0 for padding
   * @param epsilon ε_ls
   */
  public static Result compute(INDArray logits, int[] gold, INDArray weight, double epsilon, boolean withGradient) {
    int vocab = (int) logits.size(1);
    INDArray probabilities = Nd4j.exec(new SoftMax(logits, logits.ulike(), -1))[0];
    // log Σ_j exp(z_j) = z_max − log p_max: exact, and p_max ≥ 1/V never underflows (ND4J's exp and
    // log_softmax over [n, vocab] are several times slower than its softmax)
    double[] logSumExp = logits.max(true, 1).subi(Transforms.log(probabilities.max(true, 1), false)).toDoubleVector();
    double[] logitSums = logits.sum(true, 1).toDoubleVector();
    double[] w = weight.toDoubleVector();
    double tokens = 0;
    double total = 0;
    for (int i = 0; i < gold.length; i++) {
      if (w[i] != 0) {
        double goldLogProbability = logits.getDouble(i, gold[i]) - logSumExp[i];
        double sumLogProbabilities = logitSums[i] - vocab * logSumExp[i];
        tokens += w[i];
        total -= w[i] * ((1 - epsilon) * goldLogProbability + epsilon / vocab * sumLogProbabilities);
      }
    }
    double loss = tokens == 0 ? 0 : total / tokens;
    if (!withGradient) {
      return new Result(loss, tokens, null);
    }
    // dL/dz = (softmax(z) − q) · w / tokens
    INDArray d = probabilities.subi(epsilon / vocab);
    for (int i = 0; i < gold.length; i++) {
      d.putScalar(i, gold[i], d.getDouble(i, gold[i]) - (1 - epsilon));
    }
    d.muliColumnVector(weight.castTo(d.dataType()).mul(tokens == 0 ? 0 : 1.0 / tokens));
    return new Result(loss, tokens, d);
  }
}
