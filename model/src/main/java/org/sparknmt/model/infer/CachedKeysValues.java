package org.sparknmt.model.infer;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * What the queries of an incremental decoding step attend to: stored keys and values of N sequences,
 * of which the i-th of a step's n query groups reads sequence {@code sequences[i]}'s first {@code length}
 * positions. Finished sentences and reordered hypotheses change only which sequences are read, so the
 * stored keys and values are never gathered into a new order.
 *
 * @param keys [N·h, d_k, T′], stored transposed ({@link #transposed}): a query's scores against the
 *     positions are then whole vectors of positions, one multiply-add per d_k, without a sum across a vector
 * @param values [N·h, T, d_k]
 * @param keep null (every key visible) or [N·T], 1 for a key that may be attended to (source padding)
 */
public record CachedKeysValues(INDArray keys, INDArray values, int[] sequences, int length, float[] keep) {
  public CachedKeysValues {
    if (length > values.size(1)) {
      throw new IllegalArgumentException(length + " positions read of " + values.size(1) + " stored");
    }
    if (keys.size(2) != VectorMath.padded((int) values.size(1)) || keys.size(1) != values.size(2)) {
      throw new IllegalArgumentException("keys " + Arrays.toString(keys.shape()) + " are not the transposed"
          + " keys of values " + Arrays.toString(values.shape()));
    }
  }

  /**
   * Keys [N·h, T, d_k] as the cache stores them, [N·h, d_k, T′]: T′ is T rounded up to whole vectors
   * ({@link VectorMath#padded}), zeros past T, so that a vector read of positions never leaves its row.
   */
  static INDArray transposed(INDArray keys) {
    INDArray stored = empty(keys.size(0), (int) keys.size(1), keys.size(2));
    stored.get(NDArrayIndex.all(), NDArrayIndex.all(), NDArrayIndex.interval(0, keys.size(1)))
        .assign(keys.permute(0, 2, 1));
    return stored;
  }

  /** Zeros in the stored keys' layout, for n·h sequences of up to positions keys of d_k. */
  static INDArray empty(long sequences, int positions, long dk) {
    return Nd4j.create(DataType.FLOAT, sequences, dk, VectorMath.padded(positions));
  }
}
