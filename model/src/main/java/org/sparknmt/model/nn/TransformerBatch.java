package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One batch of sentence pairs, sentence-major and padded to the batch's own lengths.
 *
 * @param size the number of sentence pairs
 * @param source size·t_src source ids
 * @param sourceKeep [size, t_src], 1 for a real token, 0 for padding; null when nothing is padded
 * @param targetIn size·t_tgt decoder inputs (BOS, y_1 … y_{m−1})
 * @param targetKeep [size, t_tgt], 1 for a real target position, 0 for padding; null when nothing is padded
 * @param labels size·t_tgt gold outputs (y_1 … y_m, EOS), or null at inference
 */
public record TransformerBatch(int size, int[] source, INDArray sourceKeep, int[] targetIn, INDArray targetKeep,
    int[] labels) {

  public int sourceLength() {
    return source.length / size;
  }

  public int targetLength() {
    return targetIn.length / size;
  }
}
