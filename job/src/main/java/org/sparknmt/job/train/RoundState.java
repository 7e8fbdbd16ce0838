package org.sparknmt.job.train;

import java.io.Serializable;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The parameters and Adam state that cross between the driver and the workers in an averaging round,
 * as plain float arrays. Java serialization writes a float[] in bulk, where an INDArray serializes one
 * element at a time through its stream: with INDArrays, serializing the recipe model's 91 MB of
 * parameters and Adam state into every round's broadcast and out of every worker's result took most
 * of the quarter of each round that was not training.
 *
 * @param parameters the network's flattened parameters
 * @param updater Adam's flattened state, or null when it does not travel
 */
record RoundState(float[] parameters, float[] updater) implements Serializable {

  /** A copy of {@code net}'s parameters, and of its updater state when {@code withUpdater}. */
  static RoundState of(ComputationGraph net, boolean withUpdater) {
    return new RoundState(floats(net.params()),
        withUpdater && net.getUpdater() != null ? floats(net.getUpdater().getStateViewArray()) : null);
  }

  /** The parameters as a new [1, n] array. */
  INDArray parameterArray() {
    return row(parameters);
  }

  /** The updater state as a new [1, m] array; null when it did not travel. */
  INDArray updaterArray() {
    return updater == null ? null : row(updater);
  }

  private static float[] floats(INDArray flat) {
    if (flat.dataType() != DataType.FLOAT) {
      throw new IllegalStateException("parameter averaging trains float32 networks, got " + flat.dataType());
    }
    return flat.data().asFloat();
  }

  private static INDArray row(float[] values) {
    return Nd4j.createFromArray(values).reshape('c', 1, values.length);
  }
}
