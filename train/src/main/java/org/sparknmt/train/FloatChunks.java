package org.sparknmt.train;

import java.io.Serializable;
import java.lang.ref.Reference;
import org.bytedeco.javacpp.BytePointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * A range of a float32 vector as the raw bytes of its buffer (x86-64 and AArch64 alike are
 * little-endian), cut into byte arrays of at most {@code maxChunkFloats} floats each: one Java array
 * holds at most 2 GB, and a Transformer-big state with Adam's moments is larger. Java serialization
 * copies a byte[] in bulk, where an INDArray serializes one element at a time.
 */
final class FloatChunks implements Serializable {
  /** 1 GiB of floats: one array well under Java's limit, few enough arrays for any model. */
  static final int MAX_CHUNK_FLOATS = 1 << 28;

  private final byte[][] chunks;
  private final long length;

  private FloatChunks(byte[][] chunks, long length) {
    this.chunks = chunks;
    this.length = length;
  }

  /** A copy of the whole of {@code flat}, in chunks of at most {@link #MAX_CHUNK_FLOATS}. */
  static FloatChunks of(INDArray flat) {
    return of(flat, 0, flat.length(), MAX_CHUNK_FLOATS);
  }

  /** A copy of elements [from, to) of {@code flat} (any shape, read in 'c' order). */
  static FloatChunks of(INDArray flat, long from, long to, int maxChunkFloats) {
    if (flat.dataType() != DataType.FLOAT) {
      throw new IllegalStateException("parameter averaging trains float32 networks, got " + flat.dataType());
    }
    BytePointer direct = direct(flat);
    INDArray vector = direct == null ? vector(flat) : null;
    long length = to - from;
    byte[][] chunks = new byte[Math.toIntExact((length + maxChunkFloats - 1) / maxChunkFloats)][];
    for (int i = 0; i < chunks.length; i++) {
      long start = from + (long) i * maxChunkFloats;
      long end = Math.min(to, start + maxChunkFloats);
      chunks[i] = new byte[Math.toIntExact((end - start) * Float.BYTES)];
      if (direct != null) {
        direct.position(start * Float.BYTES).get(chunks[i]);
      } else {
        INDArray part = vector.get(NDArrayIndex.interval(start, end)).dup('c');
        part.data().asNio().limit(chunks[i].length).get(chunks[i]);
      }
    }
    // the raw pointer does not keep the buffer alive: without this, a caller's temporary (an averaged
    // slice) can be collected and its memory freed by ND4J's deallocator while the copy still reads it
    Reference.reachabilityFence(flat);
    return new FloatChunks(chunks, length);
  }

  long length() {
    return length;
  }

  int chunkCount() {
    return chunks.length;
  }

  /** The floats as a new [1, length] array. */
  INDArray row() {
    INDArray row = Nd4j.createUninitialized(DataType.FLOAT, 1, length);
    copyInto(row, 0);
    return row;
  }

  /** Writes the floats into elements [offset, offset + length) of {@code target} (contiguous, 'c' order). */
  void copyInto(INDArray target, long offset) {
    BytePointer direct = direct(target);
    INDArray vector = direct == null ? vector(target) : null;
    long start = offset;
    for (byte[] chunk : chunks) {
      long floats = chunk.length / Float.BYTES;
      if (direct != null) {
        direct.position(start * Float.BYTES).put(chunk);
      } else {
        INDArray part = Nd4j.createUninitialized(DataType.FLOAT, floats);
        part.data().asNio().put(chunk);
        vector.get(NDArrayIndex.interval(start, start + floats)).assign(part);
      }
      start += floats;
    }
    Reference.reachabilityFence(target);
  }

  /**
   * {@code array}'s own buffer, element i of its 'c' order at byte 4i, when it is not a view (the
   * network's flattened parameters and updater state, and new rows, are not): the bytes are copied
   * straight between the buffer and the chunks, without an intermediate array, which on a machine where
   * a fresh page is dear cost more than the copy itself. null for a view or an 'f'-ordered array. The
   * pointer holds no reference to the array: a caller keeps the array reachable while it uses it.
   */
  private static BytePointer direct(INDArray array) {
    return array.isView() || array.ordering() != 'c' ? null : new BytePointer(array.data().addressPointer());
  }

  /** {@code flat} as a rank-1 view (a copy only when it is not contiguous in 'c' order). */
  private static INDArray vector(INDArray flat) {
    return flat.reshape('c', new long[] {flat.length()});
  }
}
