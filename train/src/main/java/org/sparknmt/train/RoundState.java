package org.sparknmt.train;

import java.io.Serializable;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The parameters and Adam state that the driver broadcasts to the workers of an averaging round, as
 * the bytes of their float32 buffers ({@link FloatChunks}). Java serialization copies a byte[] in
 * bulk, where an INDArray serializes one element at a time through its stream, so the bytes are the
 * faster to write and read (docs/notes/2026-12-04-benchmark-history.md has the measurement).
 *
 * @param parameters the network's flattened parameters
 * @param updater Adam's flattened state, or null when it does not travel
 */
record RoundState(FloatChunks parameters, FloatChunks updater) implements Serializable {

  /** A copy of {@code net}'s parameters, and of its updater state when {@code withUpdater}. */
  static RoundState of(ComputationGraph net, boolean withUpdater) {
    return new RoundState(FloatChunks.of(net.params()),
        withUpdater && net.getUpdater() != null ? FloatChunks.of(net.getUpdater().getStateViewArray()) : null);
  }

  /** The parameters as a new [1, n] array. */
  INDArray parameterArray() {
    return parameters.row();
  }

  /** The updater state as a new [1, m] array; null when it did not travel. */
  INDArray updaterArray() {
    return updater == null ? null : updater.row();
  }
}
