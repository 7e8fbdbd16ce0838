package org.sparknmt.model.dl4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.ParamInitializer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;

/** Lays the Transformer's named tensors out in DL4J's flat parameter and gradient vectors. */
public final class TransformerParamInitializer implements ParamInitializer {
  public static final TransformerParamInitializer INSTANCE = new TransformerParamInitializer();

  private TransformerParamInitializer() {}

  static Params layout(Layer layer) {
    TransformerLayer t = (TransformerLayer) layer;
    return Transformer.layout(t.transformerConfig(), t.vocabSize());
  }

  @Override
  public long numParams(NeuralNetConfiguration conf) {
    return numParams(conf.getLayer());
  }

  @Override
  public long numParams(Layer layer) {
    return layout(layer).size();
  }

  @Override
  public List<String> paramKeys(Layer layer) {
    return new ArrayList<>(layout(layer).layout().keySet());
  }

  @Override
  public List<String> weightKeys(Layer layer) {
    return paramKeys(layer).stream().filter(k -> !isBias(k)).toList();
  }

  @Override
  public List<String> biasKeys(Layer layer) {
    return paramKeys(layer).stream().filter(TransformerParamInitializer::isBias).toList();
  }

  @Override
  public boolean isWeightParam(Layer layer, String key) {
    return !isBias(key);
  }

  @Override
  public boolean isBiasParam(Layer layer, String key) {
    return isBias(key);
  }

  private static boolean isBias(String key) {
    return key.endsWith(".b") || key.endsWith(".bias");
  }

  @Override
  public Map<String, INDArray> init(NeuralNetConfiguration conf, INDArray paramsView, boolean initializeParams) {
    Params layout = layout(conf.getLayer());
    Map<String, INDArray> views = layout.split(paramsView);
    if (initializeParams) {
      layout.initialize(views, ((TransformerLayer) conf.getLayer()).transformerConfig().dModel());
    }
    return views;
  }

  @Override
  public Map<String, INDArray> getGradientsFromFlattened(NeuralNetConfiguration conf, INDArray gradientView) {
    return layout(conf.getLayer()).split(gradientView);
  }
}
