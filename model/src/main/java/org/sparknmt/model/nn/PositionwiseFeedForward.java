package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.sparknmt.model.arrays.Buffers;

/** Eq. 2, FFN(x) = max(0, x·W_1 + b_1)·W_2 + b_2, with dropout on the inner activation while training. */
public final class PositionwiseFeedForward implements Sublayer {
  private final Linear w1;
  private final Linear w2;
  private final Dropout dropout;
  private INDArray hidden;

  public PositionwiseFeedForward(Params params, String name, int dModel, int dFf, double dropout) {
    this.w1 = new Linear(params, name + ".w1", dModel, dFf, true);
    this.w2 = new Linear(params, name + ".w2", dFf, dModel, true);
    this.dropout = new Dropout(dropout);
  }

  /** [n, d_model] -> [n, d_ff] -> [n, d_model]. */
  @Override
  public INDArray forward(INDArray x, boolean training) {
    hidden = Transforms.relu(w1.forward(x), false);
    return w2.forward(dropout.forward(hidden, training));
  }

  @Override
  public INDArray backward(INDArray dy) {
    INDArray dHidden = dropout.backward(w2.backward(dy));
    // ReLU'(z) = 1 where the output is positive
    INDArray active = Transforms.step(hidden, true);
    dHidden.muli(active);
    Buffers.free(active);
    return w1.backward(dHidden);
  }
}
