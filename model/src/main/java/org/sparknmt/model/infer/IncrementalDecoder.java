package org.sparknmt.model.infer;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.Decoder;
import org.sparknmt.model.nn.DecoderLayer;
import org.sparknmt.model.nn.MultiHeadAttention;

/**
 * The {@link Decoder} one output position at a time (fairseq's incremental decoding): the source's keys and
 * values are projected once per batch, and each step runs only the newest token of every hypothesis through
 * the layers, the earlier positions' keys and values read from the {@link DecoderCache}.
 */
public final class IncrementalDecoder {
  private IncrementalDecoder() {}

  /**
   * Starts incremental decoding of a batch: each layer's source keys and values, projected once, and
   * room for the outputs' keys and values, up to maxHypotheses hypotheses of up to maxPositions tokens.
   */
  public static DecoderCache start(Decoder decoder, INDArray memory, int batch, INDArray sourceKeep, int maxHypotheses,
      int maxPositions) {
    List<KeysValues> source = new ArrayList<>();
    for (DecoderLayer layer : decoder.layers()) {
      source.add(KeysValues.of(layer.crossAttention().attention(), memory, batch));
    }
    MultiHeadAttention self = decoder.layers().get(0).selfAttention().attention();
    return new DecoderCache(self.heads(), self.dk(), source, sourceKeep, maxHypotheses, maxPositions);
  }

  /**
   * One step: the newest token of each live hypothesis (k per sentence, sentence by sentence) at output
   * position {@code position}; returns its decoder state [n, d_model], as {@link Decoder#forward} gives it
   * for the last position of the whole prefix.
   */
  public static INDArray step(Decoder decoder, int[] newest, int position, DecoderCache cache) {
    INDArray x = decoder.positions().at(decoder.embedding().forward(newest), position);
    for (int i = 0; i < decoder.layers().size(); i++) {
      x = IncrementalDecoderLayer.step(decoder.layers().get(i), x, cache, i);
    }
    return decoder.finalNorm() == null ? x : VectorLayerNorm.apply(decoder.finalNorm(), x);
  }
}
