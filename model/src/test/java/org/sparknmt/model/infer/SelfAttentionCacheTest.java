package org.sparknmt.model.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The slots of the self-attention cache against plain per-hypothesis histories: after any sequence of
 * appends and reorders (parents kept once, twice or not at all, sentences finishing), every hypothesis
 * reads exactly its own ancestors' keys and values, position by position.
 */
class SelfAttentionCacheTest {
  private static final int HEADS = 2;
  private static final int DK = 3;

  @Test
  void everyHypothesisReadsItsOwnHistoryThroughForksAndDrops() {
    SelfAttentionCache cache = new SelfAttentionCache(4, 6, HEADS, DK, DataType.FLOAT);
    List<List<INDArray>> keys = new ArrayList<>();
    List<List<INDArray>> values = new ArrayList<>();
    // two sentences start with one hypothesis each; then beams of two; then one sentence finishes
    int[][] reorders = {{0, 0, 1, 1}, {1, 0, 3, 3}, {0, 0, 2, 3}, {3, 2}, {1, 1}};
    int n = 2;
    Nd4j.getRandom().setSeed(7);
    for (int step = 0; step <= reorders.length; step++) {
      INDArray newestKeys = Nd4j.randn(DataType.FLOAT, (long) n * HEADS, 1, DK);
      INDArray newestValues = Nd4j.randn(DataType.FLOAT, (long) n * HEADS, 1, DK);
      for (int i = 0; i < n; i++) {
        if (step == 0) {
          keys.add(new ArrayList<>());
          values.add(new ArrayList<>());
        }
        keys.get(i).add(rows(newestKeys, i));
        values.get(i).add(rows(newestValues, i));
      }
      CachedKeysValues read = cache.append(new KeysValues(newestKeys, newestValues));
      assertEquals(step + 1, read.length());
      for (int i = 0; i < n; i++) {
        for (int p = 0; p <= step; p++) {
          assertArrayEquals(keys.get(i).get(p).data().asFloat(), storedKey(read.keys(), read.sequences()[i], p), "keys of " + i + " at " + p);
          assertArrayEquals(values.get(i).get(p).data().asFloat(), stored(read.values(), read.sequences()[i], p), "values of " + i + " at " + p);
        }
      }
      if (step < reorders.length) {
        int[] parents = reorders[step];
        cache.select(parents);
        List<List<INDArray>> nextKeys = new ArrayList<>();
        List<List<INDArray>> nextValues = new ArrayList<>();
        for (int parent : parents) {
          nextKeys.add(new ArrayList<>(keys.get(parent)));
          nextValues.add(new ArrayList<>(values.get(parent)));
        }
        keys = nextKeys;
        values = nextValues;
        n = parents.length;
      }
    }
  }

  @Test
  void moreHypothesesThanSlotsAndLongerOutputsAreRefused() {
    SelfAttentionCache cache = new SelfAttentionCache(2, 1, HEADS, DK, DataType.FLOAT);
    INDArray three = Nd4j.zeros(DataType.FLOAT, 3L * HEADS, 1, DK);
    assertThrows(IllegalStateException.class, () -> cache.append(new KeysValues(three, three)));
    INDArray two = Nd4j.zeros(DataType.FLOAT, 2L * HEADS, 1, DK);
    cache.append(new KeysValues(two, two));
    assertThrows(IllegalStateException.class, () -> cache.append(new KeysValues(two, two)));
  }

  /** Hypothesis i's h heads of a step's newest position, [h, d_k]. */
  private static INDArray rows(INDArray newest, int i) {
    return newest.get(NDArrayIndex.interval((long) i * HEADS, (long) (i + 1) * HEADS), NDArrayIndex.point(0), NDArrayIndex.all()).dup('c');
  }

  /** The h heads of a slot's key at a position, [h·d_k], from the keys stored transposed. */
  private static float[] storedKey(INDArray keys, int slot, int position) {
    return keys.get(NDArrayIndex.interval((long) slot * HEADS, (long) (slot + 1) * HEADS), NDArrayIndex.all(), NDArrayIndex.point(position))
        .dup('c').data().asFloat();
  }

  /** The h heads of a slot's value at a position, [h·d_k]. */
  private static float[] stored(INDArray buffer, int slot, int position) {
    return buffer.get(NDArrayIndex.interval((long) slot * HEADS, (long) (slot + 1) * HEADS), NDArrayIndex.point(position), NDArrayIndex.all())
        .dup('c').data().asFloat();
  }
}
