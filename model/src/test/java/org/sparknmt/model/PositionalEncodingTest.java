package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.PositionalEncoding;

/** Section 3.5's claim: PE(t+k) is a linear function of PE(t), so PE(t)·PE(t+k) depends only on k, and on ±k alike. */
class PositionalEncodingTest {
  private final INDArray pe = PositionalEncoding.sinusoid(120, 64, DataType.DOUBLE);

  private double dot(int a, int b) {
    return pe.getRow(a).mul(pe.getRow(b)).sumNumber().doubleValue();
  }

  @Test
  void dotProductDependsOnlyOnOffsetAndIsSymmetric() {
    for (int k = 0; k <= 30; k += 3) {
      double reference = dot(0, k);
      for (int t = 30; t < 90; t += 7) {
        assertEquals(reference, dot(t, t + k), 1e-9, "t=" + t + " k=" + k);
        assertEquals(dot(t, t + k), dot(t, t - k), 1e-9, "±k at t=" + t + " k=" + k);
      }
    }
  }

  @Test
  void dotProductFallsWithDistanceNearby() {
    assertEquals(32.0, dot(5, 5), 1e-9, "|PE(t)|² = d/2");
    for (int k = 0; k < 4; k++) {
      org.junit.jupiter.api.Assertions.assertTrue(dot(10, 10 + k) > dot(10, 10 + k + 1), "k=" + k);
    }
  }
}
