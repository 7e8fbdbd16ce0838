package org.sparknmt.model.nn;

import java.nio.FloatBuffer;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One decoder layer's self-attention keys and values of every output position decoded so far, for
 * incremental decoding: [slots·h, positions, d_k] each, allocated once per batch for its most hypotheses
 * and its longest output and written one position a step in place. Each live hypothesis owns a slot
 * (its h heads); a reorder only reassigns slots. A hypothesis whose parent has no other child takes the
 * parent's slot as it is; only a second child of the same parent copies the parent's positions into a
 * free slot. Greedy search and sentences that finish copy nothing. (Gathering every hypothesis into a
 * second buffer at each reorder copied the whole cache of every layer; a cache concatenated anew at
 * every step kept each step's copy until the batch ended: 0.4-1.7 GB of workspace per batch of 32
 * sentences at beam 4, BENCHMARKS.md, "Translation: where a search's time went".)
 */
final class SelfAttentionCache {
  private final int heads;
  private final int dk;
  private final KeysValues stored;
  private int[] slots = new int[0];
  private int positions;

  SelfAttentionCache(int maxHypotheses, int maxPositions, int heads, int dk, DataType type) {
    if (type != DataType.FLOAT) {
      throw new IllegalArgumentException("incremental decoding runs in float, got " + type);
    }
    this.heads = heads;
    this.dk = dk;
    long rows = (long) maxHypotheses * heads;
    this.stored = new KeysValues(Nd4j.create(type, rows, maxPositions, dk), Nd4j.create(type, rows, maxPositions, dk));
  }

  /**
   * Writes the newest position's keys and values, [n·h, 1, d_k] each, of the n live hypotheses (the same
   * n, in the same order, as the cache holds; at the first position any n up to the slots); returns what
   * each hypothesis attends to: its slot's positions so far.
   */
  CachedKeysValues append(KeysValues newest) {
    int n = (int) (newest.keys().size(0) / heads);
    if (positions == 0) {
      if (n * heads > stored.keys().size(0)) {
        throw new IllegalStateException(n + " hypotheses, the cache has " + stored.keys().size(0) / heads + " slots");
      }
      slots = IntStream.range(0, n).toArray();
    } else if (n != slots.length) {
      throw new IllegalStateException(n + " hypotheses decoded, the cache holds " + slots.length);
    }
    if (positions == stored.keys().size(1)) {
      throw new IllegalStateException("an output longer than the " + positions + " positions the cache was allocated for");
    }
    write(newest.keys(), stored.keys());
    write(newest.values(), stored.values());
    positions++;
    return new CachedKeysValues(stored, slots, positions, null);
  }

  /** Row i·h + head of newest goes to position {@code positions} of row slots[i]·h + head of the buffer. */
  private void write(INDArray newest, INDArray buffer) {
    INDArray rows = newest.isView() || newest.ordering() != 'c' ? newest.dup('c') : newest;
    FloatBuffer from = rows.data().asNioFloat();
    FloatBuffer to = buffer.data().asNioFloat();
    long[] stride = buffer.stride();
    for (int i = 0; i < slots.length; i++) {
      for (int head = 0; head < heads; head++) {
        int row = i * heads + head;
        to.put((int) ((slots[i] * (long) heads + head) * stride[0] + positions * stride[1]), from, row * dk, dk);
      }
    }
  }

  /**
   * Keeps the hypotheses at the given rows of the last step, in that order (a row may be kept more than
   * once, by the children of one parent).
   */
  void select(int[] rows) {
    int capacity = (int) (stored.keys().size(0) / heads);
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
    for (INDArray buffer : new INDArray[] {stored.keys(), stored.values()}) {
      FloatBuffer data = buffer.data().asNioFloat();
      FloatBuffer source = data.duplicate();
      long[] stride = buffer.stride();
      for (int head = 0; head < heads; head++) {
        int at = (int) ((from * (long) heads + head) * stride[0]);
        data.put((int) ((to * (long) heads + head) * stride[0]), source, at, positions * (int) stride[1]);
      }
    }
  }
}
