package org.sparknmt.model.infer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The float loops of a search step that run outside ND4J, on the CPU's vector registers (JDK 17's Vector
 * API, the incubator module {@code jdk.incubator.vector}, which the JVM needs on its command line:
 * {@code --add-modules=jdk.incubator.vector}; {@code Translator} checks for it). ND4J's element-wise
 * {@code exp} is libm's scalar {@code expf}, an order of magnitude slower over a step's logits than the
 * JDK's vector exponential (SVML), and scalar loops over the cached keys and values leave most of each
 * register unused.
 *
 * <p>Native arrays are read where ND4J wrote them, through {@link #buffer(INDArray)}: offsets and
 * lengths below count floats from the start of such a buffer.
 */
public final class VectorMath {
  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();
  private static final ByteOrder ORDER = ByteOrder.nativeOrder();

  private VectorMath() {}

  /**
   * The native buffer of a float array whose first element is its buffer's first, in native byte order:
   * element (i, j, …) is at float index i·stride(0) + j·stride(1) + ….
   */
  public static ByteBuffer buffer(INDArray x) {
    if (x.offset() != 0) {
      throw new IllegalArgumentException("an array read in place must start at its buffer's first element, got offset "
          + x.offset());
    }
    return x.data().asNio().order(ORDER);
  }

  /** Whether any of the {@link #lanes()} values from x[from] is above t. */
  public static boolean anyAbove(ByteBuffer x, int from, float t) {
    return load(x, from).compare(VectorOperators.GT, t).anyTrue();
  }

  /** How many floats one vector holds on this CPU. */
  public static int lanes() {
    return LANES;
  }

  /** Σ exp(x_j − shift) over x[from … from + n − 1]: the normalizer of a softmax, with shift its maximum. */
  public static float sumExp(ByteBuffer x, int from, int n, float shift) {
    FloatVector sum = FloatVector.zero(SPECIES);
    int j = 0;
    for (; j <= n - LANES; j += LANES) {
      sum = sum.add(load(x, from + j).sub(shift).lanewise(VectorOperators.EXP));
    }
    float s = sum.reduceLanes(VectorOperators.ADD);
    for (; j < n; j++) {
      s += (float) Math.exp(x.getFloat(4 * (from + j)) - shift);
    }
    return s;
  }

  /** n rounded up to whole vectors. */
  static int padded(int n) {
    return (n + LANES - 1) / LANES * LANES;
  }

  /** x_j ← exp(x_j − shift) in place for j < n; returns their sum. An x_j of −∞ becomes 0. */
  static float expShifted(float[] x, int n, float shift) {
    FloatVector sum = FloatVector.zero(SPECIES);
    for (int j = 0; j < n; j += LANES) {
      VectorMask<Float> inside = SPECIES.indexInRange(j, n);
      FloatVector e = FloatVector.fromArray(SPECIES, x, j, inside).sub(shift).lanewise(VectorOperators.EXP);
      e.intoArray(x, j, inside);
      sum = sum.add(e, inside);
    }
    return sum.reduceLanes(VectorOperators.ADD);
  }

  /**
   * One query's scores against n keys stored transposed: out[j] = scale · Σ_d q[qi + d] · k[ki + d·stride + j]
   * for j < n, a vector of positions at a time; each of the d_k rows of positions (stride apart) and out
   * hold whole vectors past n ({@link #padded}), where the scores are written too.
   */
  static void scores(float[] q, int qi, ByteBuffer k, int ki, int stride, int dk, int n, float scale, float[] out) {
    for (int j = 0; j < n; j += LANES) {
      // four sums, so that the multiply-adds do not wait on one another
      FloatVector s0 = FloatVector.zero(SPECIES);
      FloatVector s1 = FloatVector.zero(SPECIES);
      FloatVector s2 = FloatVector.zero(SPECIES);
      FloatVector s3 = FloatVector.zero(SPECIES);
      int d = 0;
      for (; d + 3 < dk; d += 4) {
        int at = ki + d * stride + j;
        s0 = load(k, at).fma(FloatVector.broadcast(SPECIES, q[qi + d]), s0);
        s1 = load(k, at + stride).fma(FloatVector.broadcast(SPECIES, q[qi + d + 1]), s1);
        s2 = load(k, at + 2 * stride).fma(FloatVector.broadcast(SPECIES, q[qi + d + 2]), s2);
        s3 = load(k, at + 3 * stride).fma(FloatVector.broadcast(SPECIES, q[qi + d + 3]), s3);
      }
      for (; d < dk; d++) {
        s0 = load(k, ki + d * stride + j).fma(FloatVector.broadcast(SPECIES, q[qi + d]), s0);
      }
      s0.add(s1).add(s2.add(s3)).mul(scale).intoArray(out, j);
    }
  }

  /**
   * out[oi + d] = scale · Σ_j w_j · v[vi + j·stride + d] for d < dk: the values of n positions (stride apart)
   * weighted by w[0 … n − 1]. Four vectors of d at a time, each summed in a register across the positions.
   */
  static void weightedSum(float[] w, int n, float scale, ByteBuffer v, int vi, int stride, int dk, float[] out, int oi) {
    int d = 0;
    for (; d + 4 * LANES <= dk; d += 4 * LANES) {
      FloatVector s0 = FloatVector.zero(SPECIES);
      FloatVector s1 = FloatVector.zero(SPECIES);
      FloatVector s2 = FloatVector.zero(SPECIES);
      FloatVector s3 = FloatVector.zero(SPECIES);
      for (int j = 0; j < n; j++) {
        FloatVector weight = FloatVector.broadcast(SPECIES, w[j]);
        int at = vi + j * stride + d;
        s0 = load(v, at).fma(weight, s0);
        s1 = load(v, at + LANES).fma(weight, s1);
        s2 = load(v, at + 2 * LANES).fma(weight, s2);
        s3 = load(v, at + 3 * LANES).fma(weight, s3);
      }
      s0.mul(scale).intoArray(out, oi + d);
      s1.mul(scale).intoArray(out, oi + d + LANES);
      s2.mul(scale).intoArray(out, oi + d + 2 * LANES);
      s3.mul(scale).intoArray(out, oi + d + 3 * LANES);
    }
    for (; d + LANES <= dk; d += LANES) {
      FloatVector s0 = FloatVector.zero(SPECIES);
      for (int j = 0; j < n; j++) {
        s0 = load(v, vi + j * stride + d).fma(FloatVector.broadcast(SPECIES, w[j]), s0);
      }
      s0.mul(scale).intoArray(out, oi + d);
    }
    for (; d < dk; d++) {
      float s = 0;
      for (int j = 0; j < n; j++) {
        s += w[j] * v.getFloat(4 * (vi + j * stride + d));
      }
      out[oi + d] = scale * s;
    }
  }

  /** Σ x[from … from + n − 1]. */
  public static float sum(float[] x, int from, int n) {
    FloatVector sum = FloatVector.zero(SPECIES);
    int j = 0;
    for (; j + LANES <= n; j += LANES) {
      sum = sum.add(FloatVector.fromArray(SPECIES, x, from + j));
    }
    float s = sum.reduceLanes(VectorOperators.ADD);
    for (; j < n; j++) {
      s += x[from + j];
    }
    return s;
  }

  /** Σ (x_j − mean)² over x[from … from + n − 1]. */
  public static float squaredDeviations(float[] x, int from, int n, float mean) {
    FloatVector sum = FloatVector.zero(SPECIES);
    int j = 0;
    for (; j + LANES <= n; j += LANES) {
      FloatVector centered = FloatVector.fromArray(SPECIES, x, from + j).sub(mean);
      sum = centered.fma(centered, sum);
    }
    float s = sum.reduceLanes(VectorOperators.ADD);
    for (; j < n; j++) {
      float centered = x[from + j] - mean;
      s += centered * centered;
    }
    return s;
  }

  /** x_j ← (x_j − mean)·inverseStd·gain_j + bias_j in place over x[from … from + n − 1], gain and bias from 0. */
  public static void normalize(float[] x, int from, int n, float mean, float inverseStd, float[] gain, float[] bias) {
    int j = 0;
    for (; j + LANES <= n; j += LANES) {
      FloatVector.fromArray(SPECIES, x, from + j).sub(mean).mul(inverseStd)
          .fma(FloatVector.fromArray(SPECIES, gain, j), FloatVector.fromArray(SPECIES, bias, j)).intoArray(x, from + j);
    }
    for (; j < n; j++) {
      x[from + j] = (x[from + j] - mean) * inverseStd * gain[j] + bias[j];
    }
  }

  private static FloatVector load(ByteBuffer x, int floatIndex) {
    return FloatVector.fromByteBuffer(SPECIES, x, 4 * floatIndex, ORDER);
  }
}
