package org.sparknmt.model.infer;

import java.nio.ByteBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.arrays.Buffers;
import org.sparknmt.model.nn.MultiHeadAttention;
import org.sparknmt.model.nn.ScaledDotProductAttention;

/**
 * Eq. 1, softmax(Q·Kᵀ/√d_k)·V, for the few queries of an incremental decoding step, computed in Java
 * over the cached keys and values: one query per head in self-attention, a sentence's k hypotheses over
 * its source in encoder-decoder attention, each reading its own stored sequence of keys and values
 * wherever it lies in the cache. As {@link ScaledDotProductAttention} at inference, masked keys get
 * weight exactly 0 and a query without a visible key gets zeros. ND4J's batched matmul runs each of
 * these thousands of tiny products ([1, d_k]·[d_k, t]) at a fixed cost of its own, which a plain loop
 * over the stored keys does not pay.
 */
public final class IncrementalAttention {
  private IncrementalAttention() {}

  /**
   * MultiHead(Q, K, V) at inference: queries [n·t_q, d_model], n groups of t_q, attend to keys and values
   * as the cache holds them ({@link KeysValues#of}). Returns [n·t_q, d_model] and keeps nothing for a
   * backward pass.
   */
  public static INDArray attend(MultiHeadAttention attention, INDArray query, CachedKeysValues kv) {
    return attention.wo().forward(attend(attention.wq().forward(query), kv, attention.heads()));
  }

  /**
   * @param queries [n·t_q, h·d_k]: the query projection of n groups of t_q rows, heads side by side
   * @param kv the stored keys and values, and which sequence each query group reads
   * @return [n·t_q, h·d_k], the heads side by side again (the Concat of Section 3.2.2)
   */
  public static INDArray attend(INDArray queries, CachedKeysValues kv, int heads) {
    if (queries.dataType() != DataType.FLOAT) {
      throw new IllegalArgumentException("incremental decoding runs in float, got " + queries.dataType());
    }
    int n = kv.sequences().length;
    int width = (int) queries.size(1);
    int dk = width / heads;
    int tq = (int) (queries.size(0) / n);
    INDArray keys = readable(kv.keys());
    INDArray values = readable(kv.values());
    int stored = (int) values.size(1);
    int tk = kv.length();
    float[] q = Buffers.floats(queries);
    float[] keep = kv.keep();
    ByteBuffer k = VectorMath.buffer(keys);
    ByteBuffer v = VectorMath.buffer(values);
    long[] ks = keys.stride();
    long[] vs = values.stride();
    float scale = (float) (1.0 / Math.sqrt(dk));
    float[] out = new float[q.length];
    // whole vectors of positions: the scores past tk are written and never read
    float[] weights = new float[VectorMath.padded(tk)];
    for (int i = 0; i < n; i++) {
      int sequence = kv.sequences()[i];
      int keepRow = sequence * stored;
      for (int head = 0; head < heads; head++) {
        int b = sequence * heads + head;
        for (int p = 0; p < tq; p++) {
          int row = (i * tq + p) * width + head * dk;
          VectorMath.scores(q, row, k, (int) (b * ks[0]), (int) ks[1], dk, tk, scale, weights);
          float max = Float.NEGATIVE_INFINITY;
          for (int j = 0; j < tk; j++) {
            if (keep != null && keep[keepRow + j] == 0) {
              weights[j] = Float.NEGATIVE_INFINITY;
            }
            max = Math.max(max, weights[j]);
          }
          if (max == Float.NEGATIVE_INFINITY) {
            continue;
          }
          float sum = VectorMath.expShifted(weights, tk, max);
          VectorMath.weightedSum(weights, tk, 1 / sum, v, (int) (b * vs[0]), (int) vs[1], dk, out, row);
        }
      }
    }
    return Buffers.floats(out, queries.size(0), width);
  }

  /** An array whose buffer starts at its first element and whose last dimension is contiguous (positions of the keys, d_k of the values). */
  private static INDArray readable(INDArray x) {
    return x.offset() == 0 && x.stride(2) == 1 ? x : x.dup('c');
  }
}
