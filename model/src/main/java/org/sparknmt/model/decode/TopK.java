package org.sparknmt.model.decode;

import java.nio.FloatBuffer;

/** The indices of the k largest values of a row, best first (a partial insertion sort: k is a few beams). */
final class TopK {
  private TopK() {}

  /** The k best of values[from … from + length − 1] (read in place: ND4J's logits need no copy), as indices relative to from. */
  static int[] indices(FloatBuffer values, int from, int length, int k) {
    int m = Math.min(k, length);
    int[] best = new int[m];
    int size = 0;
    // the k-th best so far: most values are not above it, so the loop mostly compares and moves on
    float worstKept = Float.NEGATIVE_INFINITY;
    for (int j = 0; j < length; j++) {
      float v = values.get(from + j);
      if (size == m && v <= worstKept) {
        continue;
      }
      int pos = size < m ? size++ : m - 1;
      while (pos > 0 && values.get(from + best[pos - 1]) < v) {
        best[pos] = best[pos - 1];
        pos--;
      }
      best[pos] = j;
      worstKept = values.get(from + best[size - 1]);
    }
    return best;
  }
}
