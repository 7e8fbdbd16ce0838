package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Section 3.1, one of the N decoder layers: masked self-attention, attention over the encoder
 * output, then the feed-forward network, each in a residual sublayer.
 */
public final class DecoderLayer {
  private final SelfAttention selfAttention;
  private final EncoderDecoderAttention crossAttention;
  private final PositionwiseFeedForward feedForward;
  private final SublayerConnection selfSublayer;
  private final SublayerConnection crossSublayer;
  private final SublayerConnection feedForwardSublayer;

  public DecoderLayer(Params params, String name, TransformerConfig c) {
    this.selfAttention = new SelfAttention(params, name + ".self", c.dModel(), c.heads(), c.attentionDropout());
    this.selfSublayer = new SublayerConnection(params, name + ".self", c.dModel(), c.preNorm(), c.dropout());
    this.crossAttention = new EncoderDecoderAttention(params, name + ".cross", c.dModel(), c.heads(), c.attentionDropout());
    this.crossSublayer = new SublayerConnection(params, name + ".cross", c.dModel(), c.preNorm(), c.dropout());
    this.feedForward = new PositionwiseFeedForward(params, name + ".ffn", c.dModel(), c.dFf(), c.dropout());
    this.feedForwardSublayer = new SublayerConnection(params, name + ".ffn", c.dModel(), c.preNorm(), c.dropout());
  }

  /**
   * @param x [batch·t_tgt, d_model]
   * @param memory the encoder output [batch·t_src, d_model]
   * @param selfMask target padding and causal mask
   * @param crossMask source padding
   */
  public INDArray forward(INDArray x, INDArray memory, int batch, AttentionMask selfMask, AttentionMask crossMask,
      boolean training) {
    selfAttention.prepare(batch, selfMask);
    crossAttention.prepare(batch, memory, crossMask);
    INDArray h = selfSublayer.forward(x, selfAttention, training);
    h = crossSublayer.forward(h, crossAttention, training);
    return feedForwardSublayer.forward(h, feedForward, training);
  }

  /** Returns dL/dx; dL/d(memory) is then in {@link #memoryGradient()}. */
  public INDArray backward(INDArray dy) {
    INDArray d = feedForwardSublayer.backward(dy, feedForward);
    d = crossSublayer.backward(d, crossAttention);
    return selfSublayer.backward(d, selfAttention);
  }

  public INDArray memoryGradient() {
    return crossAttention.memoryGradient();
  }

  public SelfAttention selfAttention() {
    return selfAttention;
  }

  public EncoderDecoderAttention crossAttention() {
    return crossAttention;
  }

  public PositionwiseFeedForward feedForward() {
    return feedForward;
  }

  public SublayerConnection selfSublayer() {
    return selfSublayer;
  }

  public SublayerConnection crossSublayer() {
    return crossSublayer;
  }

  public SublayerConnection feedForwardSublayer() {
    return feedForwardSublayer;
  }
}
