package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.sparknmt.model.arrays.ColumnSums;

/** Layer normalization (Ba et al. 2016) over the last dimension, with gain γ and bias β. */
public final class LayerNorm {
  public static final double EPSILON = 1e-5;
  private final Params params;
  private final String gain;
  private final String bias;
  private INDArray normalized;
  private INDArray inverseStd;

  public LayerNorm(Params params, String name, int d) {
    this.params = params;
    this.gain = params.declare(name + ".gain", Params.Init.ONES, d);
    this.bias = params.declare(name + ".bias", Params.Init.ZEROS, d);
  }

  /** [n, d] -> [n, d]: γ·(x − μ)/√(σ² + ε) + β per row. */
  public INDArray forward(INDArray x) {
    INDArray centered = x.subColumnVector(x.mean(true, 1));
    INDArray variance = centered.mul(centered).mean(true, 1);
    inverseStd = Transforms.pow(variance.addi(EPSILON), -0.5, false);
    normalized = centered.muliColumnVector(inverseStd);
    return normalized.mulRowVector(params.value(gain)).addiRowVector(params.value(bias));
  }

  /** γ, [d]. */
  public INDArray gain() {
    return params.value(gain);
  }

  /** β, [d]. */
  public INDArray bias() {
    return params.value(bias);
  }

  /** dx = (1/σ)·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)), with dx̂ = dy·γ. */
  public INDArray backward(INDArray dy) {
    params.gradient(gain).addi(ColumnSums.of(dy.mul(normalized)));
    params.gradient(bias).addi(ColumnSums.of(dy));
    INDArray dNormalized = dy.mulRowVector(params.value(gain));
    INDArray meanD = dNormalized.mean(true, 1);
    INDArray meanDx = dNormalized.mul(normalized).mean(true, 1);
    return dNormalized.subiColumnVector(meanD).subi(normalized.mulColumnVector(meanDx)).muliColumnVector(inverseStd);
  }
}
