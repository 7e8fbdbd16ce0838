package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The keys and values of one attention, projected and split into heads (Section 3.2.2), kept between
 * incremental decoding steps: each [n·h, t, d_k], the h heads of each of n sequences together.
 */
record KeysValues(INDArray keys, INDArray values) {

  /** The sequences at the given rows, in that order (one gather of whole h-head blocks each). */
  KeysValues gather(int[] rows, int heads) {
    return new KeysValues(gather(keys, rows, heads), gather(values, rows, heads));
  }

  /** [n·h, t, d_k] -> [n, h·t·d_k] rows pulled -> [rows·h, t, d_k]. */
  private static INDArray gather(INDArray x, int[] rows, int heads) {
    long n = x.size(0) / heads;
    return Nd4j.pullRows(x.reshape('c', n, x.length() / n), 1, rows)
        .reshape('c', (long) rows.length * heads, x.size(1), x.size(2));
  }
}
