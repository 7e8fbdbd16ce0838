package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Frees a temporary array's native memory at once, unless it lives in a workspace (freed with the
 * workspace) or is a view. ND4J otherwise frees native memory only after a GC, which the small Java
 * heap of a training step rarely triggers.
 */
final class Buffers {
  private Buffers() {}

  static void free(INDArray a) {
    if (a != null && a.closeable()) {
      a.close();
    }
  }
}
