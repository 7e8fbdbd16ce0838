package org.sparknmt.model.nn;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One decoder layer's self-attention keys and values of every output position decoded so far, for
 * incremental decoding: each [hypotheses·h, positions, d_k], the h heads of each hypothesis together,
 * in buffers allocated once per batch for its longest output and written one position a step in
 * place. Reordering the hypotheses (a beam keeping some and dropping others) gathers the filled
 * positions into a second pair of buffers, which then take the first pair's place. A cache
 * concatenated anew at every step and gathered anew at every reorder kept each step's copy until the
 * batch ended: 0.4-1.7 GB of workspace per batch of 32 sentences at beam 4 (BENCHMARKS.md, "Translation:
 * where a search's time went"); these four buffers are what a search holds however long it runs.
 */
final class SelfAttentionCache {
  private final int heads;
  private INDArray keys;
  private INDArray values;
  private INDArray spareKeys;
  private INDArray spareValues;
  private int hypotheses;
  private int positions;

  SelfAttentionCache(int maxHypotheses, int maxPositions, int heads, int dk, DataType type) {
    this.heads = heads;
    long rows = (long) maxHypotheses * heads;
    this.keys = Nd4j.create(type, rows, maxPositions, dk);
    this.values = Nd4j.create(type, rows, maxPositions, dk);
    this.spareKeys = Nd4j.create(type, rows, maxPositions, dk);
    this.spareValues = Nd4j.create(type, rows, maxPositions, dk);
  }

  /** The hypotheses whose positions the cache holds. */
  int hypotheses() {
    return hypotheses;
  }

  /**
   * Writes the newest position's keys and values, [n·h, 1, d_k] each, of the n live hypotheses (the same
   * n, in the same order, as the cache holds); returns every position's, [n·h, t, d_k] views.
   */
  KeysValues append(KeysValues newest) {
    int rows = (int) newest.keys().size(0);
    if (positions > 0 && rows != hypotheses * heads) {
      throw new IllegalStateException(rows / heads + " hypotheses decoded, the cache holds " + hypotheses);
    }
    if (positions == keys.size(1)) {
      throw new IllegalStateException("an output longer than the " + positions + " positions the cache was allocated for");
    }
    hypotheses = rows / heads;
    keys.get(interval(0, rows), interval(positions, positions + 1), all()).assign(newest.keys());
    values.get(interval(0, rows), interval(positions, positions + 1), all()).assign(newest.values());
    positions++;
    return new KeysValues(filled(keys), filled(values));
  }

  private INDArray filled(INDArray buffer) {
    return buffer.get(interval(0, (long) hypotheses * heads), interval(0, positions), all());
  }

  /** Keeps the hypotheses at the given rows, in that order (a row may be kept more than once). */
  void select(int[] rows) {
    int[] headRows = new int[rows.length * heads];
    for (int i = 0; i < rows.length; i++) {
      for (int j = 0; j < heads; j++) {
        headRows[i * heads + j] = rows[i] * heads + j;
      }
    }
    gather(keys, spareKeys, headRows);
    gather(values, spareValues, headRows);
    INDArray k = keys;
    keys = spareKeys;
    spareKeys = k;
    INDArray v = values;
    values = spareValues;
    spareValues = v;
    hypotheses = rows.length;
  }

  /** Copies the filled positions of the given head rows of from into the first rows of to. */
  private void gather(INDArray from, INDArray to, int[] headRows) {
    long width = positions * from.size(2);
    INDArray source = from.reshape('c', from.size(0), from.size(1) * from.size(2))
        .get(interval(0, (long) hypotheses * heads), interval(0, width));
    INDArray target = to.reshape('c', to.size(0), to.size(1) * to.size(2))
        .get(interval(0, headRows.length), interval(0, width));
    Nd4j.pullRows(source, target, 1, headRows);
  }
}
