package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Section 5.4 "Residual Dropout" and Section 3.1: LayerNorm(x + Dropout(Sublayer(x))) (post-LN, the
 * paper), or x + Dropout(Sublayer(LayerNorm(x))) (pre-LN, which needs a final LayerNorm per stack).
 */
public final class SublayerConnection {
  private final LayerNorm norm;
  private final Dropout dropout;
  private final boolean preNorm;

  public SublayerConnection(Params params, String name, int dModel, boolean preNorm, double dropout) {
    this.norm = new LayerNorm(params, name + ".norm", dModel);
    this.dropout = new Dropout(dropout);
    this.preNorm = preNorm;
  }

  public INDArray forward(INDArray x, Sublayer sublayer, boolean training) {
    if (preNorm) {
      return x.add(dropout.forward(sublayer.forward(norm.forward(x), training), training));
    }
    return norm.forward(x.add(dropout.forward(sublayer.forward(x, training), training)));
  }

  public INDArray backward(INDArray dy, Sublayer sublayer) {
    if (preNorm) {
      return dy.add(norm.backward(sublayer.backward(dropout.backward(dy))));
    }
    INDArray dSum = norm.backward(dy);
    return dSum.add(sublayer.backward(dropout.backward(dSum)));
  }

  public LayerNorm norm() {
    return norm;
  }

  /** Whether the norm comes before the sublayer (pre-LN) rather than after the residual sum (post-LN, the paper). */
  public boolean preNorm() {
    return preNorm;
  }
}
