package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.transforms.custom.SoftMax;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Eq. 1, Attention(Q, K, V) = softmax(Q·Kᵀ/√d_k + mask)·V, for a batch of heads, with dropout on
 * the attention weights while training. Masked weights are exactly 0 (multiplied by the keep mask
 * after the softmax, so even a query with no visible key gets zero weights, not a uniform row).
 */
public final class ScaledDotProductAttention {
  private final Dropout dropout;
  private INDArray q;
  private INDArray k;
  private INDArray v;
  private INDArray weights;
  private INDArray droppedWeights;
  private double scale;

  /** Gradients with respect to the three inputs, each shaped like its input. */
  public record Gradients(INDArray dq, INDArray dk, INDArray dv) {}

  public ScaledDotProductAttention(double attentionDropout) {
    this.dropout = new Dropout(attentionDropout);
  }

  /**
   * q: [B, t_q, d_k], k and v: [B, t_k, d_k], with B = batch·heads; returns [B, t_q, d_k]. mask null:
   * every query sees every key.
   */
  public INDArray forward(INDArray q, INDArray k, INDArray v, AttentionMask mask, boolean training) {
    this.q = q;
    this.k = k;
    this.v = v;
    this.scale = 1.0 / Math.sqrt(q.size(2));
    INDArray scores = Nd4j.matmul(q, k, false, true, false).muli(scale); // [B, t_q, t_k]
    if (mask != null) {
      scores.addi(mask.bias());
    }
    weights = softmax(scores);
    if (mask != null) {
      weights.muli(mask.keep());
    }
    droppedWeights = dropout.forward(weights, training);
    return Nd4j.matmul(droppedWeights, v, false, false, false);
  }

  /** Softmax over the keys, in place. */
  private static INDArray softmax(INDArray scores) {
    return Nd4j.exec(new SoftMax(scores, scores, -1))[0];
  }

  /** The attention weights of the last forward pass, [B, t_q, t_k], before dropout. */
  public INDArray weights() {
    return weights;
  }

  public Gradients backward(INDArray dOut) {
    INDArray dv = Nd4j.matmul(droppedWeights, dOut, true, false, false);
    INDArray dWeights = dropout.backward(Nd4j.matmul(dOut, v, false, true, false));
    // softmax backward: dS = W ⊙ (dW − Σ_j dW ⊙ W); masked entries have W = 0 and so get dS = 0
    INDArray rowDot = dWeights.mul(weights).sum(true, 2);
    INDArray dScores = dWeights.subi(rowDot.broadcast(dWeights.shape())).muli(weights).muli(scale);
    INDArray dq = Nd4j.matmul(dScores, k, false, false, false);
    INDArray dk = Nd4j.matmul(dScores, q, true, false, false);
    return new Gradients(dq, dk, dv);
  }
}
