package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Section 3.1, one of the N encoder layers: self-attention, then the feed-forward network, each in a residual sublayer. */
public final class EncoderLayer {
  private final SelfAttention selfAttention;
  private final PositionwiseFeedForward feedForward;
  private final SublayerConnection attentionSublayer;
  private final SublayerConnection feedForwardSublayer;

  public EncoderLayer(Params params, String name, TransformerConfig c) {
    this.selfAttention = new SelfAttention(params, name + ".self", c.dModel(), c.heads(), c.attentionDropout());
    this.attentionSublayer = new SublayerConnection(params, name + ".self", c.dModel(), c.preNorm(), c.dropout());
    this.feedForward = new PositionwiseFeedForward(params, name + ".ffn", c.dModel(), c.dFf(), c.dropout());
    this.feedForwardSublayer = new SublayerConnection(params, name + ".ffn", c.dModel(), c.preNorm(), c.dropout());
  }

  /** x: [batch·t_src, d_model]; mask: source padding. */
  public INDArray forward(INDArray x, int batch, AttentionMask mask, boolean training) {
    selfAttention.prepare(batch, mask);
    INDArray h = attentionSublayer.forward(x, selfAttention, training);
    return feedForwardSublayer.forward(h, feedForward, training);
  }

  public INDArray backward(INDArray dy) {
    return attentionSublayer.backward(feedForwardSublayer.backward(dy, feedForward), selfAttention);
  }

  public SelfAttention selfAttention() {
    return selfAttention;
  }
}
