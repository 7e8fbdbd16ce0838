package org.sparknmt.model.dl4j;

import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.MaskState;
import org.deeplearning4j.nn.api.layers.IOutputLayer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.gradient.DefaultGradient;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.workspace.ArrayType;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.sparknmt.model.infer.PassWorkspace;
import org.sparknmt.model.nn.LabelSmoothedCrossEntropy;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerBatch;

/**
 * The DL4J side of {@link TransformerLayer}: runs the {@link Transformer}'s explicit forward and backward
 * passes on the parameters {@link FlatParamsLayer} binds to DL4J's flat views. The loss of the last backward pass
 * is kept because ComputationGraph resets the mask (to the label mask) between backprop and scoring.
 */
public final class TransformerLayerImpl extends FlatParamsLayer implements IOutputLayer {
  private final Transformer model;
  private INDArray pairMask;
  private INDArray labels;
  private Gradient gradient;
  private double score;
  private boolean scoreOfCurrentInput;

  public TransformerLayerImpl(NeuralNetConfiguration conf, DataType dataType) {
    super(conf, dataType, new Params());
    TransformerLayer t = (TransformerLayer) conf.getLayer();
    this.model = new Transformer(t.transformerConfig(), t.vocabSize(), params);
  }

  /** The model whose parameters this layer holds; decoding runs on it directly. */
  public Transformer transformer() {
    return model;
  }

  @Override
  public void setInput(INDArray input, LayerWorkspaceMgr workspaceMgr) {
    super.setInput(input, workspaceMgr);
    scoreOfCurrentInput = false;
  }

  @Override
  public Pair<INDArray, MaskState> feedForwardMaskArray(INDArray mask, MaskState state, int minibatchSize) {
    pairMask = mask;
    return new Pair<>(null, state);
  }

  /** DL4J sets the label mask here; the target mask already travels in the packed pair's mask. */
  @Override
  public void setMaskArray(INDArray mask) {
    if (mask == null) {
      pairMask = null;
    }
    maskArray = mask;
  }

  /** Probabilities [batch, vocab, t_tgt] (DL4J's NCW layout) of every target position, teacher-forced. */
  @Override
  public INDArray activate(boolean training, LayerWorkspaceMgr workspaceMgr) {
    assertInputSet(false);
    TransformerBatch b = SourceTargetVertex.unpack(input, pairMask, null);
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces();
        MemoryWorkspace pass = PassWorkspace.open(PassWorkspace.INFERENCE)) {
      INDArray memory = model.encode(b.size(), b.source(), b.sourceKeep(), dataType, training);
      INDArray states = model.decode(b.size(), b.targetIn(), b.targetKeep(), memory, b.sourceKeep(), training);
      INDArray probs = Transforms.exp(model.logProbabilities(states), false);
      // the only array that outlives the pass
      return probs.reshape(b.size(), b.targetLength(), model.vocabSize()).permute(0, 2, 1).dup('c').detach();
    }
  }

  /**
   * One training step's forward and backward pass. Every intermediate array lives in a workspace
   * reused from step to step (only the gradients, written into DL4J's views, outlive it): without
   * it, native memory is freed only by GCs that JavaCPP forces when near its limit, with sleeps.
   */
  @Override
  public Pair<Gradient, INDArray> backpropGradient(INDArray epsilon, LayerWorkspaceMgr workspaceMgr) {
    assertInputSet(true);
    TransformerBatch batch = SourceTargetVertex.unpack(input, pairMask, labels);
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      getGradientsViewArray().assign(0);
      try (MemoryWorkspace step = PassWorkspace.open(PassWorkspace.TRAINING_STEP)) {
        LabelSmoothedCrossEntropy.Result r = model.loss(batch, dataType, true, true);
        model.backward(r.dLogits());
        score = r.loss();
      }
      scoreOfCurrentInput = true;
      gradient = new DefaultGradient(getGradientsViewArray());
      for (Map.Entry<String, INDArray> e : gradientViews().entrySet()) {
        gradient.setGradientFor(e.getKey(), e.getValue());
      }
      return new Pair<>(gradient, workspaceMgr.dup(ArrayType.ACTIVATION_GRAD, Nd4j.zeros(input.dataType(), input.shape())));
    }
  }

  @Override
  public double computeScore(double fullNetworkRegScore, boolean training, LayerWorkspaceMgr workspaceMgr) {
    if (!scoreOfCurrentInput) {
      TransformerBatch batch = SourceTargetVertex.unpack(input, pairMask, labels);
      try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces();
          MemoryWorkspace pass = PassWorkspace.open(PassWorkspace.INFERENCE)) {
        score = model.loss(batch, dataType, training, false).loss();
      }
    }
    return score + fullNetworkRegScore;
  }

  @Override
  public INDArray computeScoreForExamples(double fullNetworkRegScore, LayerWorkspaceMgr workspaceMgr) {
    throw new UnsupportedOperationException("per-example scores are not provided; use computeScore per batch");
  }

  /** The loss is already a mean over target tokens; DL4J must not divide its gradient by the batch size again. */
  @Override
  public boolean updaterDivideByMinibatch(String paramName) {
    return false;
  }

  @Override
  public Gradient gradient() {
    return gradient;
  }

  @Override
  public double score() {
    return score;
  }

  @Override
  public boolean needsLabels() {
    return true;
  }

  @Override
  public void setLabels(INDArray labels) {
    this.labels = labels;
    scoreOfCurrentInput = false;
  }

  @Override
  public INDArray getLabels() {
    return labels;
  }

  @Override
  public void clear() {
    super.clear();
    pairMask = null;
    labels = null;
    scoreOfCurrentInput = false;
  }

  @Override
  public boolean isPretrainLayer() {
    return false;
  }

  @Override
  public void clearNoiseWeightParams() {
    // no weight noise
  }

  @Override
  public int numLabels() {
    return model.vocabSize();
  }

  @Override
  public double f1Score(DataSet data) {
    throw unsupported();
  }

  @Override
  public double f1Score(INDArray examples, INDArray labels) {
    throw unsupported();
  }

  @Override
  public void fit(DataSetIterator iter) {
    throw unsupported();
  }

  @Override
  public int[] predict(INDArray examples) {
    throw unsupported();
  }

  @Override
  public List<String> predict(DataSet dataSet) {
    throw unsupported();
  }

  @Override
  public void fit(INDArray examples, INDArray labels) {
    throw unsupported();
  }

  @Override
  public void fit(DataSet data) {
    throw unsupported();
  }

  @Override
  public void fit(INDArray examples, int[] labels) {
    throw unsupported();
  }

  private static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("the Transformer layer is trained through its ComputationGraph");
  }
}
