package org.sparknmt.model.dl4j;

import java.util.Collection;
import java.util.Objects;
import org.deeplearning4j.nn.api.ParamInitializer;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.memory.LayerMemoryReport;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.shade.jackson.annotation.JsonProperty;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * The DL4J configuration of the whole Transformer as one output layer: it owns every parameter (so
 * DL4J's updater, parameter averaging and checkpoints cover them all) and computes the
 * label-smoothed loss. Its input is the packed pair from {@link SourceTargetVertex}. The fields are
 * plain annotated values so that DL4J's (shaded) JSON and {@code clone()} keep them (Spark workers rebuild from a clone).
 */
public final class TransformerLayer extends BaseLayer {
  @JsonProperty private int dModel;
  @JsonProperty private int heads;
  @JsonProperty private int dFf;
  @JsonProperty private int layers;
  @JsonProperty private int maxLength;
  @JsonProperty private double dropout;
  @JsonProperty private double attentionDropout;
  @JsonProperty private double labelSmoothing;
  @JsonProperty private boolean shareEmbeddings;
  @JsonProperty private boolean preNorm;
  @JsonProperty private boolean learnedPositions;
  @JsonProperty private int vocabSize;

  /** For DL4J's JSON deserialization. */
  private TransformerLayer() {}

  public TransformerLayer(TransformerConfig c, int vocabSize) {
    this.dModel = c.dModel();
    this.heads = c.heads();
    this.dFf = c.dFf();
    this.layers = c.layers();
    this.maxLength = c.maxLength();
    this.dropout = c.dropout();
    this.attentionDropout = c.attentionDropout();
    this.labelSmoothing = c.labelSmoothing();
    this.shareEmbeddings = c.shareEmbeddings();
    this.preNorm = c.preNorm();
    this.learnedPositions = c.learnedPositions();
    this.vocabSize = vocabSize;
  }

  public TransformerConfig transformerConfig() {
    return new TransformerConfig(dModel, heads, dFf, layers, maxLength, dropout, attentionDropout, labelSmoothing,
        shareEmbeddings, preNorm, learnedPositions);
  }

  public int vocabSize() {
    return vocabSize;
  }

  @Override
  public org.deeplearning4j.nn.api.Layer instantiate(NeuralNetConfiguration conf,
      Collection<TrainingListener> listeners, int layerIndex, INDArray layerParamsView, boolean initializeParams,
      DataType networkDataType) {
    TransformerLayerImpl layer = new TransformerLayerImpl(conf, networkDataType);
    layer.setListeners(listeners);
    layer.setIndex(layerIndex);
    layer.setParamsViewArray(layerParamsView);
    layer.setParamTable(initializer().init(conf, layerParamsView, initializeParams));
    layer.setConf(conf);
    return layer;
  }

  @Override
  public ParamInitializer initializer() {
    return TransformerParamInitializer.INSTANCE;
  }

  @Override
  public InputType getOutputType(int layerIndex, InputType inputType) {
    return InputType.recurrent(vocabSize);
  }

  @Override
  public void setNIn(InputType inputType, boolean override) {
    // the input is token ids; nothing to infer
  }

  @Override
  public InputPreProcessor getPreProcessorForInputType(InputType inputType) {
    return null;
  }

  @Override
  public boolean isPretrainParam(String paramName) {
    return false;
  }

  @Override
  public LayerMemoryReport getMemoryReport(InputType inputType) {
    long params = TransformerParamInitializer.INSTANCE.numParams(this);
    return new LayerMemoryReport.Builder(layerName, TransformerLayer.class, inputType, getOutputType(0, inputType))
        .standardMemory(params, params).workingMemory(0, 0, 0, 0).cacheMemory(0, 0).build();
  }

  @Override
  public TransformerLayer clone() {
    return (TransformerLayer) super.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TransformerLayer t && super.equals(o) && vocabSize == t.vocabSize
        && transformerConfig().equals(t.transformerConfig());
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), vocabSize, transformerConfig());
  }
}
