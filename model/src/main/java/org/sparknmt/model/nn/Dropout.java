package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.arrays.Buffers;

/** Inverted dropout (Section 5.4, P_drop): active only while training, identity at inference. */
public final class Dropout {
  private final double p;
  private INDArray mask;

  public Dropout(double p) {
    this.p = p;
  }

  public INDArray forward(INDArray x, boolean training) {
    Buffers.free(mask);
    if (!training || p == 0) {
      mask = null;
      return x;
    }
    INDArray uniform = Nd4j.rand(x.dataType(), x.shape());
    INDArray kept = uniform.gt(p);
    mask = kept.castTo(x.dataType()).muli(1.0 / (1.0 - p));
    Buffers.free(uniform);
    Buffers.free(kept);
    return x.mul(mask);
  }

  public INDArray backward(INDArray dy) {
    return mask == null ? dy : dy.mul(mask);
  }
}
