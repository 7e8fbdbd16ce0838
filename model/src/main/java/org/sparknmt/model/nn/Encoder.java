package org.sparknmt.model.nn;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Figure 1, left: embeddings + positional encoding, dropout, N encoder layers (and a final LayerNorm when pre-LN). */
public final class Encoder {
  private final TokenEmbedding embedding;
  private final PositionalEncoding positions;
  private final Dropout dropout;
  private final List<EncoderLayer> layers = new ArrayList<>();
  private final LayerNorm finalNorm;

  public Encoder(Params params, String name, TransformerConfig c, String embeddingWeights) {
    this.embedding = new TokenEmbedding(params, embeddingWeights, c.dModel());
    this.positions = new PositionalEncoding(params, name, c.maxLength(), c.dModel(), c.learnedPositions());
    this.dropout = new Dropout(c.dropout());
    for (int i = 0; i < c.layers(); i++) {
      layers.add(new EncoderLayer(params, name + ".layer" + i, c));
    }
    this.finalNorm = c.preNorm() ? new LayerNorm(params, name + ".norm", c.dModel()) : null;
  }

  /** src: batch·t_src token ids, sentence-major; returns the memory [batch·t_src, d_model]. */
  public INDArray forward(int[] src, int batch, AttentionMask mask, boolean training) {
    INDArray x = dropout.forward(positions.forward(embedding.forward(src), batch), training);
    for (EncoderLayer layer : layers) {
      x = layer.forward(x, batch, mask, training);
    }
    return finalNorm == null ? x : finalNorm.forward(x);
  }

  public void backward(INDArray dMemory) {
    INDArray d = finalNorm == null ? dMemory : finalNorm.backward(dMemory);
    for (int i = layers.size() - 1; i >= 0; i--) {
      d = layers.get(i).backward(d);
    }
    d = dropout.backward(d);
    positions.backward(d);
    embedding.backward(d);
  }

  public TokenEmbedding embedding() {
    return embedding;
  }

  public PositionalEncoding positions() {
    return positions;
  }

  public List<EncoderLayer> layers() {
    return layers;
  }

  /** The final LayerNorm of a pre-LN stack; null post-LN, where each sublayer ends in its own. */
  public LayerNorm finalNorm() {
    return finalNorm;
  }
}
