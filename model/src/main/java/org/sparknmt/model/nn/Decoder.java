package org.sparknmt.model.nn;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Figure 1, right: target embeddings (shifted right) + positional encoding, dropout, N decoder
 * layers attending to the encoder output (and a final LayerNorm when pre-LN).
 */
public final class Decoder {
  private final TokenEmbedding embedding;
  private final PositionalEncoding positions;
  private final Dropout dropout;
  private final List<DecoderLayer> layers = new ArrayList<>();
  private final LayerNorm finalNorm;

  public Decoder(Params params, String name, TransformerConfig c, String embeddingWeights) {
    this.embedding = new TokenEmbedding(params, embeddingWeights, c.dModel());
    this.positions = new PositionalEncoding(params, name, c.maxLength(), c.dModel(), c.learnedPositions());
    this.dropout = new Dropout(c.dropout());
    for (int i = 0; i < c.layers(); i++) {
      layers.add(new DecoderLayer(params, name + ".layer" + i, c));
    }
    this.finalNorm = c.preNorm() ? new LayerNorm(params, name + ".norm", c.dModel()) : null;
  }

  /** tgtIn: batch·t_tgt token ids (BOS first), sentence-major; returns [batch·t_tgt, d_model]. */
  public INDArray forward(int[] tgtIn, INDArray memory, int batch, AttentionMask selfMask, AttentionMask crossMask,
      boolean training) {
    INDArray x = dropout.forward(positions.forward(embedding.forward(tgtIn), batch), training);
    for (DecoderLayer layer : layers) {
      x = layer.forward(x, memory, batch, selfMask, crossMask, training);
    }
    return finalNorm == null ? x : finalNorm.forward(x);
  }

  /** Backpropagates to the target embeddings; returns dL/d(memory), summed over the layers. */
  public INDArray backward(INDArray dy) {
    INDArray d = finalNorm == null ? dy : finalNorm.backward(dy);
    INDArray dMemory = null;
    for (int i = layers.size() - 1; i >= 0; i--) {
      DecoderLayer layer = layers.get(i);
      d = layer.backward(d);
      dMemory = dMemory == null ? layer.memoryGradient() : dMemory.addi(layer.memoryGradient());
    }
    d = dropout.backward(d);
    positions.backward(d);
    embedding.backward(d);
    return dMemory;
  }

  public TokenEmbedding embedding() {
    return embedding;
  }

  public PositionalEncoding positions() {
    return positions;
  }

  public List<DecoderLayer> layers() {
    return layers;
  }

  /** The final LayerNorm of a pre-LN stack; null post-LN, where each sublayer ends in its own. */
  public LayerNorm finalNorm() {
    return finalNorm;
  }
}
