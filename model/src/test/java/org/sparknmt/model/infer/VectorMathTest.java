package org.sparknmt.model.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** The vector loops against the same sums in double precision, on lengths with and without a scalar tail. */
class VectorMathTest {
  private static final int[] LENGTHS = {1, 15, 16, 64, 67, 8000, 8003};

  @Test
  void sumExpIsTheSoftmaxNormalizer() {
    Random random = new Random(3);
    for (int n : LENGTHS) {
      float[] x = gaussian(random, 5 + n, 6);
      double expected = 0;
      for (int j = 0; j < n; j++) {
        expected += Math.exp(x[5 + j] - 2.5);
      }
      assertEquals(expected, VectorMath.sumExp(buffer(x), 5, n, 2.5f), 2e-6 * expected, "n = " + n);
    }
  }

  @Test
  void expShiftedExponentiatesInPlaceAndMinusInfinityGivesZero() {
    Random random = new Random(5);
    for (int n : LENGTHS) {
      float[] x = gaussian(random, n + 2, 3);
      x[0] = Float.NEGATIVE_INFINITY;
      float[] before = x.clone();
      double expected = 0;
      for (int j = 0; j < n; j++) {
        expected += Math.exp(before[j] - 1.5);
      }
      assertEquals(expected, VectorMath.expShifted(x, n, 1.5f), 2e-6 * expected, "sum, n = " + n);
      assertEquals(0f, x[0], "exp(−∞)");
      for (int j = 1; j < n; j++) {
        assertEquals(Math.exp(before[j] - 1.5), x[j], 1e-6 * Math.exp(before[j] - 1.5), "n = " + n + ", j = " + j);
      }
      assertEquals(before[n], x[n], "x[n] and after untouched");
      assertEquals(before[n + 1], x[n + 1]);
    }
  }

  @Test
  void weightedSumIsTheScalarSum() {
    Random random = new Random(4);
    for (int dk : new int[] {8, 16, 64, 70, 128}) {
      for (int n : new int[] {1, 15, 37}) {
        int stride = dk + 3;
        float[] w = gaussian(random, n, 1);
        float[] v = gaussian(random, 7 + n * stride, 1);
        float[] out = gaussian(random, 2 + dk + 1, 1);
        float[] expected = out.clone();
        for (int d = 0; d < dk; d++) {
          double sum = 0;
          for (int j = 0; j < n; j++) {
            sum += (double) w[j] * v[7 + j * stride + d];
          }
          expected[2 + d] = (float) (0.25 * sum);
        }
        VectorMath.weightedSum(w, n, 0.25f, buffer(v), 7, stride, dk, out, 2);
        assertArrayEquals(expected, out, 1e-5f, "d_k " + dk + ", n " + n + ", values outside out's range untouched");
      }
    }
  }

  @Test
  void scoresAreTheDotProductsWithTransposedKeys() {
    Random random = new Random(6);
    for (int dk : new int[] {8, 64, 6}) {
      for (int n : new int[] {1, 15, 16, 37}) {
        int stride = VectorMath.padded(n) + 16;
        float[] q = gaussian(random, 3 + dk, 1);
        float[] k = gaussian(random, 5 + dk * stride, 1);
        float[] out = new float[VectorMath.padded(n)];
        VectorMath.scores(q, 3, buffer(k), 5, stride, dk, n, 0.5f, out);
        for (int j = 0; j < n; j++) {
          double expected = 0;
          for (int d = 0; d < dk; d++) {
            expected += (double) q[3 + d] * k[5 + d * stride + j];
          }
          assertEquals(0.5 * expected, out[j], 1e-5 * Math.sqrt(dk), "d_k " + dk + ", n " + n + ", j " + j);
        }
      }
    }
  }

  @Test
  void anyAboveLooksAtOneVector() {
    float[] x = new float[2 * VectorMath.lanes()];
    x[VectorMath.lanes()] = 1;
    assertFalse(VectorMath.anyAbove(buffer(x), 0, 0.5f));
    assertTrue(VectorMath.anyAbove(buffer(x), 1, 0.5f));
  }

  @Test
  void anArrayIsReadInPlaceOnlyFromTheStartOfItsBuffer() {
    INDArray a = Nd4j.createFromArray(new float[][] {{1, 2}, {3, 4}});
    assertEquals(3, VectorMath.buffer(a).getFloat(4 * 2));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> VectorMath.buffer(a.get(NDArrayIndex.point(1), NDArrayIndex.all())));
    assertTrue(e.getMessage().contains("offset 2"), e.getMessage());
  }

  private static float[] gaussian(Random random, int n, double scale) {
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) (random.nextGaussian() * scale);
    }
    return x;
  }

  private static ByteBuffer buffer(float[] values) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
    buffer.asFloatBuffer().put(values);
    return buffer;
  }
}
