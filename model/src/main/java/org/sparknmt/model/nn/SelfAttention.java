package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Self-attention (Section 3.2.3): queries, keys and values all come from the previous layer's output. */
public final class SelfAttention implements Sublayer {
  private final MultiHeadAttention attention;
  private int batch;
  private AttentionMask mask;

  public SelfAttention(Params params, String name, int dModel, int heads, double attentionDropout) {
    this.attention = new MultiHeadAttention(params, name, dModel, heads, attentionDropout);
  }

  /** Sets the batch size and the mask (padding, and causal in the decoder) for the next forward pass. */
  public void prepare(int batch, AttentionMask mask) {
    this.batch = batch;
    this.mask = mask;
  }

  @Override
  public INDArray forward(INDArray x, boolean training) {
    return attention.forward(x, x, batch, mask, training);
  }

  @Override
  public INDArray backward(INDArray dy) {
    MultiHeadAttention.Gradients g = attention.backward(dy);
    return g.dQuery().addi(g.dKeyValue());
  }

  public MultiHeadAttention attention() {
    return attention;
  }

  /** [batch, heads, t, t] of the last forward pass. */
  public INDArray weights() {
    return attention.weights();
  }
}
