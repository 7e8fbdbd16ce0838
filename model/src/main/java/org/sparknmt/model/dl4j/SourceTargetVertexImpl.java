package org.sparknmt.model.dl4j;

import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.api.MaskState;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.graph.vertex.BaseGraphVertex;
import org.deeplearning4j.nn.workspace.ArrayType;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The runtime side of {@link SourceTargetVertex}; token ids have no gradient, so its backward pass returns zeros. */
final class SourceTargetVertexImpl extends BaseGraphVertex {

  SourceTargetVertexImpl(ComputationGraph graph, String name, int index, DataType dataType) {
    super(graph, name, index, null, null, dataType);
  }

  @Override
  public boolean hasLayer() {
    return false;
  }

  @Override
  public Layer getLayer() {
    return null;
  }

  @Override
  public INDArray doForward(boolean training, LayerWorkspaceMgr workspaceMgr) {
    INDArray packed = SourceTargetVertex.pack(inputs[0], inputs[1], inputs[0].size(1));
    return workspaceMgr.leverageTo(ArrayType.ACTIVATIONS, packed);
  }

  @Override
  public Pair<Gradient, INDArray[]> doBackward(boolean tbptt, LayerWorkspaceMgr workspaceMgr) {
    return new Pair<>(null, new INDArray[] {
        workspaceMgr.dup(ArrayType.ACTIVATION_GRAD, Nd4j.zeros(inputs[0].dataType(), inputs[0].shape())),
        workspaceMgr.dup(ArrayType.ACTIVATION_GRAD, Nd4j.zeros(inputs[1].dataType(), inputs[1].shape()))});
  }

  @Override
  public void setBackpropGradientsViewArray(INDArray view) {
    if (view != null) {
      throw new IllegalStateException("SourceTargetVertex has no parameters");
    }
  }

  /** Both masks [batch, t_src] and [batch, t_tgt] are needed to split the packed mask; one alone is an error. */
  @Override
  public Pair<INDArray, MaskState> feedForwardMaskArrays(INDArray[] masks, MaskState state, int minibatchSize) {
    if (masks == null || (masks[0] == null && masks[1] == null)) {
      return null;
    }
    if (masks[0] == null || masks[1] == null) {
      throw new IllegalArgumentException(
          "give both feature masks (source [batch, t_src] and target [batch, t_tgt]) or neither");
    }
    return new Pair<>(SourceTargetVertex.pack(masks[0], masks[1], 1), state);
  }

  @Override
  public String toString() {
    return "SourceTargetVertex(name=\"" + vertexName + "\")";
  }
}
