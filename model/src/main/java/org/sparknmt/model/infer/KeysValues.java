package org.sparknmt.model.infer;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.MultiHeadAttention;

/**
 * The keys and values of one attention, projected and split into heads (Section 3.2.2), kept between
 * incremental decoding steps: each [n·h, t, d_k], the h heads of each of n sequences together.
 */
public record KeysValues(INDArray keys, INDArray values) {

  /**
   * K·W^K and V·W^V of a key/value input [n·t, d_model] (n sequences), projected once so that later
   * queries attend to them without projecting them again.
   */
  public static KeysValues of(MultiHeadAttention attention, INDArray keyValue, int n) {
    int t = (int) (keyValue.size(0) / n);
    return new KeysValues(attention.splitHeads(attention.wk().forward(keyValue), n, t),
        attention.splitHeads(attention.wv().forward(keyValue), n, t));
  }
}
