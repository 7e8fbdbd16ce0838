package org.sparknmt.model.nn;

import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Native memory of temporary arrays: read and written from Java in place, and freed at once.
 */
final class Buffers {
  private Buffers() {}

  /**
   * The values of a float array, row-major, read in place where they lie (a view or another ordering is
   * copied to row-major first). Readers take a row at a time: a [512, 256] step of beam search copied
   * whole into a Java array is 512 KB, a humongous object for G1 with a 2 GB heap, and the search made
   * about twenty a step (BENCHMARKS.md, "No humongous arrays in a search step").
   */
  static FloatBuffer rowMajor(INDArray x) {
    INDArray rows = x.isView() || x.ordering() != 'c' ? x.dup('c') : x;
    return rows.data().asNioFloat();
  }

  /** A [rows, columns] float array in the current workspace, for its values to be written row by row. */
  static INDArray uninitialized(long rows, long columns) {
    return Nd4j.createUninitialized(DataType.FLOAT, rows, columns);
  }

  /**
   * Frees a temporary array's native memory at once, unless it lives in a workspace (freed with the
   * workspace) or is a view. ND4J otherwise frees native memory only after a GC, which the small Java
   * heap of a training step rarely triggers.
   */
  static void free(INDArray a) {
    if (a != null && a.closeable()) {
      a.close();
    }
  }
}
