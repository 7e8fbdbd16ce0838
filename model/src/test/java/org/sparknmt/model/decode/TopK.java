package org.sparknmt.model.decode;

/** The indices of the k largest values of a row, best first (a partial insertion sort: k is a few beams): the oracle's top k. */
final class TopK {
  private TopK() {}

  static int[] indices(float[] row, int k) {
    int m = Math.min(k, row.length);
    int[] best = new int[m];
    int size = 0;
    for (int j = 0; j < row.length; j++) {
      if (size == m && row[j] <= row[best[m - 1]]) {
        continue;
      }
      int pos = size < m ? size++ : m - 1;
      while (pos > 0 && row[best[pos - 1]] < row[j]) {
        best[pos] = best[pos - 1];
        pos--;
      }
      best[pos] = j;
    }
    return best;
  }
}
