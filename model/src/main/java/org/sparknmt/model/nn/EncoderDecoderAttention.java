package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Encoder-decoder attention (Section 3.2.3): queries from the decoder, keys and values from the encoder output. */
public final class EncoderDecoderAttention implements Sublayer {
  private final MultiHeadAttention attention;
  private int batch;
  private AttentionMask mask;
  private INDArray memory;
  private INDArray dMemory;

  public EncoderDecoderAttention(Params params, String name, int dModel, int heads, double attentionDropout) {
    this.attention = new MultiHeadAttention(params, name, dModel, heads, attentionDropout);
  }

  /** memory: the encoder output [batch·t_src, d_model]; mask: source padding, [batch·h, t_tgt, t_src]. */
  public void prepare(int batch, INDArray memory, AttentionMask mask) {
    this.batch = batch;
    this.memory = memory;
    this.mask = mask;
  }

  @Override
  public INDArray forward(INDArray x, boolean training) {
    return attention.forward(x, memory, batch, mask, training);
  }

  @Override
  public INDArray backward(INDArray dy) {
    MultiHeadAttention.Gradients g = attention.backward(dy);
    dMemory = g.dKeyValue();
    return g.dQuery();
  }

  /** dL/d(memory) from the last backward pass. */
  public INDArray memoryGradient() {
    return dMemory;
  }

  public MultiHeadAttention attention() {
    return attention;
  }

  /** [batch, heads, t_tgt, t_src] of the last forward pass. */
  public INDArray weights() {
    return attention.weights();
  }
}
