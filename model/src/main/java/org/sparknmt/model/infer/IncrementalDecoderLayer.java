package org.sparknmt.model.infer;

import java.util.function.UnaryOperator;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.DecoderLayer;
import org.sparknmt.model.nn.MultiHeadAttention;
import org.sparknmt.model.nn.SublayerConnection;

/**
 * One {@link DecoderLayer} for the newest position only: its keys and values come from, and go to, the
 * {@link DecoderCache}, so the earlier positions are never run through the layer again.
 */
final class IncrementalDecoderLayer {
  private IncrementalDecoderLayer() {}

  /** x [n, d_model] is the newest position of n hypotheses, k per sentence in turn. */
  static INDArray step(DecoderLayer layer, INDArray x, DecoderCache cache, int index) {
    INDArray h = residual(layer.selfSublayer(), x, y -> selfAttention(layer.selfAttention().attention(), y, cache, index));
    h = residual(layer.crossSublayer(), h, y -> IncrementalAttention.attend(layer.crossAttention().attention(), y,
        cache.source(index)));
    return residual(layer.feedForwardSublayer(), h, y -> layer.feedForward().forward(y, false));
  }

  /**
   * The newest position's keys and values join the layer's cache and it attends to every cached
   * position; they are all earlier ones, so no causal mask is needed.
   */
  private static INDArray selfAttention(MultiHeadAttention attention, INDArray x, DecoderCache cache, int index) {
    return IncrementalAttention.attend(attention, x,
        cache.appendOutput(index, KeysValues.of(attention, x, (int) x.size(0))));
  }

  /** {@link SublayerConnection} at inference: no dropout, and the norm in Java ({@link VectorLayerNorm}). */
  private static INDArray residual(SublayerConnection connection, INDArray x, UnaryOperator<INDArray> sublayer) {
    return connection.preNorm()
        ? x.add(sublayer.apply(VectorLayerNorm.apply(connection.norm(), x)))
        : VectorLayerNorm.apply(connection.norm(), x.add(sublayer.apply(x)));
  }
}
