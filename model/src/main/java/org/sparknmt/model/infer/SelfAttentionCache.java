package org.sparknmt.model.infer;

import java.nio.FloatBuffer;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One decoder layer's self-attention keys and values of every output position decoded so far, for
 * incremental decoding, allocated once per batch for its most hypotheses and its longest output and
 * written one position a step in place: the values [slots·h, positions, d_k], the keys transposed
 * ({@link CachedKeysValues#transposed}). Each live hypothesis owns a slot
 * (its h heads); a reorder only reassigns slots. A hypothesis whose parent has no other child takes the
 * parent's slot as it is; only a second child of the same parent copies the parent's positions into a
 * free slot. Greedy search and sentences that finish copy nothing. (Gathering every hypothesis into a
 * second buffer at each reorder would copy the whole cache of every layer; a cache concatenated anew
 * at every step would keep each step's copy until the batch ends.)
 */
final class SelfAttentionCache {
  private final int heads;
  private final int dk;
  private final INDArray keys;
  private final INDArray values;
  private int[] slots = new int[0];
  private int positions;

  SelfAttentionCache(int maxHypotheses, int maxPositions, int heads, int dk, DataType type) {
    if (type != DataType.FLOAT) {
      throw new IllegalArgumentException("incremental decoding runs in float, got " + type);
    }
    this.heads = heads;
    this.dk = dk;
    long rows = (long) maxHypotheses * heads;
    this.keys = CachedKeysValues.empty(rows, maxPositions, dk);
    this.values = Nd4j.create(type, rows, maxPositions, dk);
  }

  /**
   * Writes the newest position's keys and values, [n·h, 1, d_k] each, of the n live hypotheses (the same
   * n, in the same order, as the cache holds; at the first position any n up to the slots); returns what
   * each hypothesis attends to: its slot's positions so far.
   */
  CachedKeysValues append(KeysValues newest) {
    int n = (int) (newest.keys().size(0) / heads);
    if (positions == 0) {
      if (n * heads > values.size(0)) {
        throw new IllegalStateException(n + " hypotheses, the cache has " + values.size(0) / heads + " slots");
      }
      slots = IntStream.range(0, n).toArray();
    } else if (n != slots.length) {
      throw new IllegalStateException(n + " hypotheses decoded, the cache holds " + slots.length);
    }
    if (positions == values.size(1)) {
      throw new IllegalStateException("an output longer than the " + positions + " positions the cache was allocated for");
    }
    write(rows(newest.keys()), rows(newest.values()));
    positions++;
    return new CachedKeysValues(keys, values, slots, positions, null);
  }

  private static FloatBuffer rows(INDArray newest) {
    return (newest.isView() || newest.ordering() != 'c' ? newest.dup('c') : newest).data().asNioFloat();
  }

  /**
   * Row i·h + head of the newest keys and values goes to position {@code positions} of row slots[i]·h + head:
   * the value's d_k floats in one copy, each of the key's to its own row of positions.
   */
  private void write(FloatBuffer newKeys, FloatBuffer newValues) {
    FloatBuffer k = keys.data().asNioFloat();
    FloatBuffer v = values.data().asNioFloat();
    long[] ks = keys.stride();
    long[] vs = values.stride();
    for (int i = 0; i < slots.length; i++) {
      for (int head = 0; head < heads; head++) {
        int row = i * heads + head;
        long slot = slots[i] * (long) heads + head;
        v.put((int) (slot * vs[0] + positions * vs[1]), newValues, row * dk, dk);
        for (int d = 0; d < dk; d++) {
          k.put((int) (slot * ks[0] + d * ks[1] + positions), newKeys.get(row * dk + d));
        }
      }
    }
  }

  /**
   * Keeps the hypotheses at the given rows of the last step, in that order (a row may be kept more than
   * once, by the children of one parent).
   */
  void select(int[] rows) {
    int capacity = (int) (values.size(0) / heads);
    int[] next = new int[rows.length];
    boolean[] used = new boolean[capacity];
    boolean[] parentTaken = new boolean[slots.length];
    for (int i = 0; i < rows.length; i++) {
      next[i] = -1;
      if (!parentTaken[rows[i]]) {
        parentTaken[rows[i]] = true;
        next[i] = slots[rows[i]];
        used[next[i]] = true;
      }
    }
    int free = 0;
    for (int i = 0; i < rows.length; i++) {
      if (next[i] < 0) {
        while (used[free]) {
          free++;
        }
        used[free] = true;
        next[i] = free;
        copy(slots[rows[i]], free);
      }
    }
    slots = next;
  }

  /** The filled positions of slot from's h heads into slot to's (both keys and values). */
  private void copy(int from, int to) {
    FloatBuffer v = values.data().asNioFloat();
    FloatBuffer k = keys.data().asNioFloat();
    long[] vs = values.stride();
    long[] ks = keys.stride();
    for (int head = 0; head < heads; head++) {
      v.put((int) ((to * (long) heads + head) * vs[0]), v.duplicate(), (int) ((from * (long) heads + head) * vs[0]),
          positions * (int) vs[1]);
      for (int d = 0; d < dk; d++) {
        k.put((int) ((to * (long) heads + head) * ks[0] + d * ks[1]), k.duplicate(),
            (int) ((from * (long) heads + head) * ks[0] + d * ks[1]), positions);
      }
    }
  }
}
