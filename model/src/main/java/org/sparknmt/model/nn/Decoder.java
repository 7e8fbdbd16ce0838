package org.sparknmt.model.nn;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.TransformerConfig;
import org.sparknmt.model.infer.DecoderCache;
import org.sparknmt.model.infer.KeysValues;

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
  private final int heads;
  private final int dk;

  public Decoder(Params params, String name, TransformerConfig c, String embeddingWeights) {
    this.embedding = new TokenEmbedding(params, embeddingWeights, c.dModel());
    this.positions = new PositionalEncoding(params, name, c.maxLength(), c.dModel(), c.learnedPositions());
    this.dropout = new Dropout(c.dropout());
    for (int i = 0; i < c.layers(); i++) {
      layers.add(new DecoderLayer(params, name + ".layer" + i, c));
    }
    this.finalNorm = c.preNorm() ? new LayerNorm(params, name + ".norm", c.dModel()) : null;
    this.heads = c.heads();
    this.dk = c.dModel() / c.heads();
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

  /**
   * Starts incremental decoding of a batch: each layer's source keys and values, projected once, and
   * room for the outputs' keys and values, up to maxHypotheses hypotheses of up to maxPositions tokens.
   */
  public DecoderCache start(INDArray memory, int batch, INDArray sourceKeep, int maxHypotheses, int maxPositions) {
    List<KeysValues> source = new ArrayList<>();
    for (DecoderLayer layer : layers) {
      source.add(layer.crossAttention().keysValues(memory, batch));
    }
    return new DecoderCache(heads, dk, source, sourceKeep, maxHypotheses, maxPositions);
  }

  /**
   * One incremental decoding step, at inference: the newest token of each live hypothesis (k per
   * sentence, sentence by sentence) at output position {@code position}; returns its decoder state
   * [n, d_model], as {@link #forward} gives it for the last position of the whole prefix.
   */
  public INDArray step(int[] newest, int position, DecoderCache cache) {
    INDArray x = positions.at(embedding.forward(newest), position);
    for (int i = 0; i < layers.size(); i++) {
      x = layers.get(i).step(x, cache, i);
    }
    return finalNorm == null ? x : finalNorm.infer(x);
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

  public List<DecoderLayer> layers() {
    return layers;
  }
}
