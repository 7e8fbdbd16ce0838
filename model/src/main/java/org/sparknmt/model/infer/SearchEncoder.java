package org.sparknmt.model.infer;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.AttentionMask;
import org.sparknmt.model.nn.Encoder;
import org.sparknmt.model.nn.EncoderLayer;
import org.sparknmt.model.nn.Transformer;

/**
 * The {@link Encoder} at inference, for a search: each layer's temporaries go into the step workspace,
 * which the next layer reuses, and only its output moves up into the search's workspace, so that a search
 * holds one layer's activations instead of every layer's (the encoder's activations of all layers are most
 * of a search's workspace otherwise).
 */
public final class SearchEncoder {
  private SearchEncoder() {}

  /** Encodes size sources as {@link Transformer#encode} does without training: [size·t_src, d_model]. */
  public static INDArray encode(Transformer model, int size, int[] source, INDArray sourceKeep, DataType type) {
    AttentionMask mask = model.encoderMask(size, source, sourceKeep, type);
    Encoder encoder = model.encoder();
    INDArray x = encoder.positions().forward(encoder.embedding().forward(source), size);
    for (EncoderLayer layer : encoder.layers()) {
      try (MemoryWorkspace step = PassWorkspace.open(PassWorkspace.SEARCH_STEP)) {
        x = layer.forward(x, size, mask, false).leverage();
      }
    }
    return encoder.finalNorm() == null ? x : encoder.finalNorm().forward(x);
  }
}
