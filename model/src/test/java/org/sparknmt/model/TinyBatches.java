package org.sparknmt.model;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Hand-made padded batches for tests: ids row by row, lengths give the mask. */
final class TinyBatches {
  private TinyBatches() {}

  static INDArray ids(DataType type, int[][] rows) {
    double[][] d = new double[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      d[i] = java.util.Arrays.stream(rows[i]).asDoubleStream().toArray();
    }
    return Nd4j.create(d).castTo(type);
  }

  static INDArray mask(DataType type, int width, int... lengths) {
    INDArray m = Nd4j.zeros(type, lengths.length, width);
    for (int i = 0; i < lengths.length; i++) {
      for (int t = 0; t < lengths[i]; t++) {
        m.putScalar(i, t, 1.0);
      }
    }
    return m;
  }
}
