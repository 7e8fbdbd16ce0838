package org.sparknmt.model.dl4j;

import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.memory.LayerMemoryReport;
import org.deeplearning4j.nn.conf.memory.MemoryReport;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.sparknmt.model.nn.TransformerBatch;

/**
 * Joins the graph's two inputs, source ids [batch, t_src] and decoder input ids [batch, t_tgt], into
 * one array for the single-input {@link TransformerLayer}: [batch, 1 + t_src + t_tgt], column 0
 * holding t_src. Their masks are joined the same way (column 0 is 1). Both lengths stay dynamic.
 */
public final class SourceTargetVertex extends GraphVertex {

  @Override
  public SourceTargetVertex clone() {
    return new SourceTargetVertex();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SourceTargetVertex;
  }

  @Override
  public int hashCode() {
    return SourceTargetVertex.class.hashCode();
  }

  @Override
  public long numParams(boolean backprop) {
    return 0;
  }

  @Override
  public int minVertexInputs() {
    return 2;
  }

  @Override
  public int maxVertexInputs() {
    return 2;
  }

  @Override
  public org.deeplearning4j.nn.graph.vertex.GraphVertex instantiate(ComputationGraph graph, String name, int idx,
      INDArray paramsView, boolean initializeParams, DataType networkDatatype) {
    return new SourceTargetVertexImpl(graph, name, idx, networkDatatype);
  }

  @Override
  public InputType getOutputType(int layerIndex, InputType... vertexInputs) {
    return InputType.feedForward(-1);
  }

  @Override
  public MemoryReport getMemoryReport(InputType... inputTypes) {
    return new LayerMemoryReport.Builder(null, SourceTargetVertex.class, inputTypes[0], getOutputType(-1, inputTypes))
        .standardMemory(0, 0).workingMemory(0, 0, 0, 0).cacheMemory(0, 0).build();
  }

  /** [batch, t_src] and [batch, t_tgt] -> [batch, 1 + t_src + t_tgt] with t_src in column 0. */
  static INDArray pack(INDArray source, INDArray target, double first) {
    INDArray head = Nd4j.valueArrayOf(new long[] {source.size(0), 1}, first, source.dataType());
    return Nd4j.hstack(head, source, target.castTo(source.dataType()));
  }

  /**
   * Splits a packed pair (and its packed mask, and labels [batch, t_tgt] or null) into a batch.
   *
   * @throws IllegalArgumentException when the label shape does not match the decoder input
   */
  public static TransformerBatch unpack(INDArray pair, INDArray pairMask, INDArray labels) {
    int size = (int) pair.size(0);
    int ts = pair.getInt(0, 0);
    int tt = (int) pair.size(1) - 1 - ts;
    INDArray sourceKeep = null;
    INDArray targetKeep = null;
    if (pairMask != null) {
      sourceKeep = pairMask.get(NDArrayIndex.all(), NDArrayIndex.interval(1, 1 + ts)).dup('c');
      targetKeep = pairMask.get(NDArrayIndex.all(), NDArrayIndex.interval(1 + ts, 1 + ts + tt)).dup('c');
    }
    int[] labelIds = null;
    if (labels != null) {
      if (labels.rank() != 2 || labels.size(0) != size || labels.size(1) != tt) {
        throw new IllegalArgumentException("labels must be token ids [batch=" + size + ", t_tgt=" + tt + "], got "
            + java.util.Arrays.toString(labels.shape()));
      }
      labelIds = ids(labels);
    }
    return new TransformerBatch(size, ids(pair.get(NDArrayIndex.all(), NDArrayIndex.interval(1, 1 + ts))),
        sourceKeep, ids(pair.get(NDArrayIndex.all(), NDArrayIndex.interval(1 + ts, 1 + ts + tt))), targetKeep,
        labelIds);
  }

  /** A matrix of token ids (in any data type), row by row. */
  public static int[] ids(INDArray matrix) {
    return matrix.castTo(DataType.INT32).dup('c').reshape(matrix.length()).toIntVector();
  }
}
