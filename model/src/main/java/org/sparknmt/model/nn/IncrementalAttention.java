package org.sparknmt.model.nn;

import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Eq. 1, softmax(Q·Kᵀ/√d_k)·V, for the few queries of an incremental decoding step, computed in Java
 * over the cached keys and values: one query per head in self-attention, a sentence's k hypotheses over
 * its source in encoder-decoder attention, each reading its own stored sequence of keys and values
 * wherever it lies in the cache. As {@link ScaledDotProductAttention} at inference, masked
 * keys get weight exactly 0 and a query without a visible key gets zeros. ND4J's batched matmul ran
 * each of these thousands of tiny products ([1, d_k]·[d_k, t]) at a cost of its own; for 128 hypotheses
 * (512 heads) the two products and the softmax took 2-3 ms per attention, here 1-2 ms, and a greedy
 * step has six (BENCHMARKS.md, "Threads that keep their workspaces, the attention of a step in Java").
 */
final class IncrementalAttention {
  private IncrementalAttention() {}

  /**
   * @param queries [n·t_q, h·d_k]: the query projection of n groups of t_q rows, heads side by side
   * @param kv the stored keys and values, and which sequence each query group reads
   * @return [n·t_q, h·d_k], the heads side by side again (the Concat of Section 3.2.2)
   */
  static INDArray attend(INDArray queries, CachedKeysValues kv, int heads) {
    if (queries.dataType() != DataType.FLOAT) {
      throw new IllegalArgumentException("incremental decoding runs in float, got " + queries.dataType());
    }
    int n = kv.sequences().length;
    int width = (int) queries.size(1);
    int dk = width / heads;
    int tq = (int) (queries.size(0) / n);
    INDArray keys = readable(kv.stored().keys());
    INDArray values = readable(kv.stored().values());
    int stored = (int) keys.size(1);
    int tk = kv.length();
    float[] q = Buffers.floats(queries);
    float[] keep = kv.keep();
    FloatBuffer k = keys.data().asNioFloat();
    FloatBuffer v = values.data().asNioFloat();
    long[] ks = keys.stride();
    long[] vs = values.stride();
    float scale = (float) (1.0 / Math.sqrt(dk));
    float[] out = new float[q.length];
    float[] weights = new float[tk];
    for (int i = 0; i < n; i++) {
      int sequence = kv.sequences()[i];
      int keepRow = sequence * stored;
      for (int head = 0; head < heads; head++) {
        int b = sequence * heads + head;
        for (int p = 0; p < tq; p++) {
          int row = (i * tq + p) * width + head * dk;
          float max = Float.NEGATIVE_INFINITY;
          for (int j = 0; j < tk; j++) {
            if (keep != null && keep[keepRow + j] == 0) {
              weights[j] = Float.NEGATIVE_INFINITY;
              continue;
            }
            weights[j] = dot(q, row, k, (int) (b * ks[0] + j * ks[1]), dk) * scale;
            max = Math.max(max, weights[j]);
          }
          if (max == Float.NEGATIVE_INFINITY) {
            continue;
          }
          float sum = 0;
          for (int j = 0; j < tk; j++) {
            weights[j] = weights[j] == Float.NEGATIVE_INFINITY ? 0 : (float) Math.exp(weights[j] - max);
            sum += weights[j];
          }
          for (int j = 0; j < tk; j++) {
            float w = weights[j] / sum;
            if (w != 0) {
              int at = (int) (b * vs[0] + j * vs[1]);
              for (int d = 0; d < dk; d++) {
                out[row + d] += w * v.get(at + d);
              }
            }
          }
        }
      }
    }
    return Buffers.floats(out, queries.size(0), width);
  }

  /** Four partial sums, so that the products do not wait on one another. */
  private static float dot(float[] q, int from, FloatBuffer k, int at, int dk) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int d = 0;
    for (; d + 3 < dk; d += 4) {
      s0 += q[from + d] * k.get(at + d);
      s1 += q[from + d + 1] * k.get(at + d + 1);
      s2 += q[from + d + 2] * k.get(at + d + 2);
      s3 += q[from + d + 3] * k.get(at + d + 3);
    }
    for (; d < dk; d++) {
      s0 += q[from + d] * k.get(at + d);
    }
    return (s0 + s1) + (s2 + s3);
  }

  /** An array whose buffer starts at its first element and whose last dimension is contiguous. */
  private static INDArray readable(INDArray x) {
    return x.offset() == 0 && x.stride(2) == 1 ? x : x.dup('c');
  }
}
