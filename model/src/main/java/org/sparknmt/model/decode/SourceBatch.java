package org.sparknmt.model.decode;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Source sentences padded to the longest: ids sentence-major and the keep mask [batch, t_src]. */
record SourceBatch(int size, int length, int[] ids, INDArray keep) {

  static SourceBatch of(int[][] sources, int pad, DataType type) {
    int length = 0;
    for (int[] s : sources) {
      if (s.length == 0) {
        throw new IllegalArgumentException("empty source sentence (it needs at least EOS)");
      }
      length = Math.max(length, s.length);
    }
    int[] ids = new int[sources.length * length];
    float[][] keep = new float[sources.length][length];
    for (int i = 0; i < sources.length; i++) {
      java.util.Arrays.fill(ids, i * length, (i + 1) * length, pad);
      System.arraycopy(sources[i], 0, ids, i * length, sources[i].length);
      java.util.Arrays.fill(keep[i], 0, sources[i].length, 1f);
    }
    return new SourceBatch(sources.length, length, ids, Nd4j.create(keep).castTo(type));
  }
}
