package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/** The function inside a residual connection: an attention or the feed-forward network, [n, d] -> [n, d]. */
public interface Sublayer {
  INDArray forward(INDArray x, boolean training);

  /** Takes dL/d(output), returns dL/d(input) and accumulates the sublayer's own parameter gradients. */
  INDArray backward(INDArray dy);
}
