package org.sparknmt.job.train;

import java.io.Serializable;
import java.nio.ByteBuffer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The parameters and Adam state that cross between the driver and the workers in an averaging round,
 * as the raw bytes of their float32 buffers (x86-64 and AArch64 alike are little-endian). Java
 * serialization copies a byte[] in bulk, where an INDArray serializes one element at a time through its
 * stream: for the recipe model's 87 MB of parameters and Adam state, writing and reading took about
 * 300 and 250 ms as INDArrays, 90-170 and 90-145 ms as bytes (measured side by side in one JVM), and a
 * round does it once for the broadcast and twice per worker for its result.
 *
 * @param parameters the network's flattened parameters
 * @param updater Adam's flattened state, or null when it does not travel
 */
record RoundState(byte[] parameters, byte[] updater) implements Serializable {

  /** A copy of {@code net}'s parameters, and of its updater state when {@code withUpdater}. */
  static RoundState of(ComputationGraph net, boolean withUpdater) {
    return new RoundState(bytes(net.params()),
        withUpdater && net.getUpdater() != null ? bytes(net.getUpdater().getStateViewArray()) : null);
  }

  /** The parameters as a new [1, n] array. */
  INDArray parameterArray() {
    return row(parameters);
  }

  /** The updater state as a new [1, m] array; null when it did not travel. */
  INDArray updaterArray() {
    return updater == null ? null : row(updater);
  }

  private static byte[] bytes(INDArray flat) {
    if (flat.dataType() != DataType.FLOAT) {
      throw new IllegalStateException("parameter averaging trains float32 networks, got " + flat.dataType());
    }
    if (flat.length() > (Integer.MAX_VALUE - 8) / Float.BYTES) {
      throw new IllegalStateException(flat.length() + " floats do not fit one Java array (2 GB) of a round's state");
    }
    INDArray whole = flat.isView() || flat.ordering() != 'c' ? flat.dup('c') : flat;
    byte[] bytes = new byte[(int) whole.length() * Float.BYTES];
    ByteBuffer.wrap(bytes).put(whole.data().asNio().limit(bytes.length));
    return bytes;
  }

  private static INDArray row(byte[] bytes) {
    INDArray row = Nd4j.create(DataType.FLOAT, 1, bytes.length / Float.BYTES);
    row.data().asNio().put(bytes);
    return row;
  }
}
