package org.sparknmt.model.infer;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.arrays.Buffers;
import org.sparknmt.model.nn.LayerNorm;

/**
 * {@link LayerNorm} at inference, computed in Java on vector registers ({@link VectorMath}): three passes
 * per row instead of nine ND4J operations, each of which cost about as much as normalizing the few rows of
 * a decoding step.
 */
public final class VectorLayerNorm {
  private VectorLayerNorm() {}

  /** [n, d] -> [n, d] as {@link LayerNorm#forward}. Float only (the search's type); anything else takes the forward pass. */
  public static INDArray apply(LayerNorm norm, INDArray x) {
    if (x.dataType() != DataType.FLOAT) {
      return norm.forward(x);
    }
    int n = (int) x.size(0);
    int d = (int) x.size(1);
    float[] v = Buffers.floats(x);
    float[] g = norm.gain().toFloatVector();
    float[] b = norm.bias().toFloatVector();
    for (int i = 0; i < n; i++) {
      int from = i * d;
      float mean = VectorMath.sum(v, from, d) / d;
      float inverseStd = (float) (1 / Math.sqrt(VectorMath.squaredDeviations(v, from, d, mean) / d + LayerNorm.EPSILON));
      VectorMath.normalize(v, from, d, mean, inverseStd, g, b);
    }
    return Buffers.floats(v, n, d);
  }
}
