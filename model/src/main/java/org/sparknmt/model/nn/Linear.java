package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.arrays.Buffers;
import org.sparknmt.model.arrays.ColumnSums;

/** A linear map of row vectors, y = x·W + b (W: [in, out]), as every projection of the paper. */
public final class Linear {
  private final Params params;
  private final String w;
  private final String b;
  private INDArray x;

  public Linear(Params params, String name, int in, int out, boolean bias) {
    this.params = params;
    this.w = params.declare(name + ".w", Params.Init.XAVIER, in, out);
    this.b = bias ? params.declare(name + ".b", Params.Init.ZEROS, out) : null;
  }

  /** [n, in] -> [n, out]. */
  public INDArray forward(INDArray input) {
    x = input;
    // INDArray.mmul computes into a column-major buffer and copies it into the row-major result (5% of
    // a training step in a profile); Nd4j.gemm writes the row-major result directly.
    INDArray y = Nd4j.gemm(input, params.value(w), false, false);
    if (b != null) {
      y.addiRowVector(params.value(b));
    }
    return y;
  }

  /** W, [in, out]. */
  public INDArray weights() {
    return params.value(w);
  }

  /** b, [out], or null without a bias. */
  public INDArray bias() {
    return b == null ? null : params.value(b);
  }

  /** Accumulates dW = xᵀ·dy and db = Σ_rows dy; returns dx = dy·Wᵀ. */
  public INDArray backward(INDArray dy) {
    INDArray dW = Nd4j.gemm(x, dy, true, false);
    params.gradient(w).addi(dW);
    Buffers.free(dW);
    if (b != null) {
      params.gradient(b).addi(ColumnSums.of(dy));
    }
    return Nd4j.gemm(dy, params.value(w), false, true);
  }
}
