package org.sparknmt.model.decode;

import java.nio.ByteBuffer;
import org.sparknmt.model.infer.VectorMath;

/** The indices of the k largest values of a row, best first (a partial insertion sort: k is a few beams). */
final class TopK {
  private TopK() {}

  /**
   * The k best of values[from … from + length − 1] (floats, read in place: ND4J's logits need no copy), as
   * indices relative to from.
   */
  static int[] indices(ByteBuffer values, int from, int length, int k) {
    int m = Math.min(k, length);
    int[] best = new int[m];
    int size = 0;
    // the k-th best so far: most values are not above it, so most vectors of values are passed over in one comparison
    float worstKept = Float.NEGATIVE_INFINITY;
    int lanes = VectorMath.lanes();
    for (int start = 0; start < length; start += lanes) {
      int end = Math.min(length, start + lanes);
      if (size == m && end - start == lanes && !VectorMath.anyAbove(values, from + start, worstKept)) {
        continue;
      }
      for (int j = start; j < end; j++) {
        float v = values.getFloat(4 * (from + j));
        if (size == m && v <= worstKept) {
          continue;
        }
        int pos = size < m ? size++ : m - 1;
        while (pos > 0 && values.getFloat(4 * (from + best[pos - 1])) < v) {
          best[pos] = best[pos - 1];
          pos--;
        }
        best[pos] = j;
        worstKept = values.getFloat(4 * (from + best[size - 1]));
      }
    }
    return best;
  }
}
