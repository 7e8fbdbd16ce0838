package org.sparknmt.model.nn;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Section 3.5: PE(t, 2i) = sin(t / 10000^(2i/d_model)), PE(t, 2i+1) = cos(t / 10000^(2i/d_model)),
 * added to the scaled token embeddings; or, as an option, learned position embeddings [max_length, d_model].
 */
public final class PositionalEncoding {
  private final Params params;
  private final String learned;
  private final int maxLength;
  private final int dModel;
  private INDArray table;
  private int batch;
  private int length;

  public PositionalEncoding(Params params, String name, int maxLength, int dModel, boolean learned) {
    this.params = params;
    this.maxLength = maxLength;
    this.dModel = dModel;
    this.learned = learned ? params.declare(name + ".positions", Params.Init.SMALL_NORMAL, maxLength, dModel) : null;
  }

  /** The sinusoidal table [max_length, d_model], computed in double precision. */
  public static INDArray sinusoid(int maxLength, int dModel, DataType type) {
    double[][] pe = new double[maxLength][dModel];
    for (int t = 0; t < maxLength; t++) {
      for (int i = 0; i < dModel; i += 2) {
        double angle = t / Math.pow(10000.0, (double) i / dModel);
        pe[t][i] = Math.sin(angle);
        if (i + 1 < dModel) {
          pe[t][i + 1] = Math.cos(angle);
        }
      }
    }
    return Nd4j.create(pe).castTo(type);
  }

  /** x: [batch·t, d_model] -> x + PE[0 … t−1] for every sentence. */
  public INDArray forward(INDArray x, int batch) {
    this.batch = batch;
    this.length = (int) (x.size(0) / batch);
    if (length > maxLength) {
      throw new IllegalArgumentException(
          "sequence of " + length + " tokens is longer than model.max_length = " + maxLength);
    }
    INDArray rows = positions(x.dataType()).get(NDArrayIndex.interval(0, length), NDArrayIndex.all());
    return x.reshape(batch, length, dModel).add(rows.reshape(1, length, dModel).broadcast(batch, length, dModel))
        .reshape((long) batch * length, dModel);
  }

  /** x: [n, d_model], tokens at one position of n sequences (incremental decoding) -> x + PE[position]. */
  public INDArray at(INDArray x, int position) {
    if (position >= maxLength) {
      throw new IllegalArgumentException(
          "sequence of " + (position + 1) + " tokens is longer than model.max_length = " + maxLength);
    }
    return x.addRowVector(positions(x.dataType()).getRow(position));
  }

  /** Accumulates the learned table's gradient (the sum over sentences); the sinusoid has none. */
  public void backward(INDArray dy) {
    if (learned != null) {
      params.gradient(learned).get(NDArrayIndex.interval(0, length), NDArrayIndex.all())
          .addi(dy.reshape(batch, length, dModel).sum(0));
    }
  }

  private INDArray positions(DataType type) {
    if (learned != null) {
      return params.value(learned);
    }
    if (table == null || table.dataType() != type) {
      // kept across steps, so never in a step's workspace
      try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
        table = sinusoid(maxLength, dModel, type);
      }
    }
    return table;
  }
}
