package org.sparknmt.model.arrays;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Σ over rows of [n, d] as a GEMM with a ones row: ND4J's strided {@code sum(0)} is several times slower. */
public final class ColumnSums {
  private ColumnSums() {}

  /** [n, d] -> [d]. */
  public static INDArray of(INDArray x) {
    return Nd4j.ones(x.dataType(), 1, x.size(0)).mmul(x).reshape(x.size(1));
  }
}
