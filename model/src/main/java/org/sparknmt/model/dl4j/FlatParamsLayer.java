package org.sparknmt.model.dl4j;

import java.util.LinkedHashMap;
import java.util.Map;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.layers.AbstractLayer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.Params;

/**
 * The parameter side of {@link TransformerLayerImpl}: DL4J owns one flat array of parameters and one of
 * gradients for the whole graph and hands each layer its views; this binds a {@link Params} set (named
 * arrays the model computes with) to them, so that DL4J's updater and the model share the same memory.
 */
abstract class FlatParamsLayer extends AbstractLayer<TransformerLayer> {
  protected final Params params;
  private INDArray paramsFlat;
  private INDArray gradientsFlat;
  private Map<String, INDArray> paramViews = Map.of();
  private Map<String, INDArray> gradientViews = Map.of();

  FlatParamsLayer(NeuralNetConfiguration conf, DataType dataType, Params params) {
    super(conf, dataType);
    this.params = params;
  }

  /** The gradient views by parameter name, in the order of the flat array. */
  protected Map<String, INDArray> gradientViews() {
    return gradientViews;
  }

  @Override
  public void setParamsViewArray(INDArray flat) {
    paramsFlat = flat;
    paramViews = params.split(flat);
    params.bindValues(paramViews);
  }

  @Override
  public void setBackpropGradientsViewArray(INDArray flat) {
    gradientsFlat = flat;
    gradientViews = params.split(flat);
    params.bindGradients(gradientViews);
  }

  @Override
  public INDArray getGradientsViewArray() {
    return gradientsFlat;
  }

  @Override
  public INDArray params() {
    return paramsFlat;
  }

  @Override
  public void setParams(INDArray p) {
    paramsFlat.assign(p);
  }

  @Override
  public long numParams() {
    return params.size();
  }

  @Override
  public long numParams(boolean backwards) {
    return params.size();
  }

  @Override
  public Map<String, INDArray> paramTable(boolean backpropParamsOnly) {
    return new LinkedHashMap<>(paramViews);
  }

  @Override
  public void setParamTable(Map<String, INDArray> table) {
    for (Map.Entry<String, INDArray> e : table.entrySet()) {
      setParam(e.getKey(), e.getValue());
    }
  }

  @Override
  public INDArray getParam(String key) {
    return params.value(key);
  }

  @Override
  public void setParam(String key, INDArray value) {
    INDArray view = paramViews.get(key);
    if (view == null) {
      throw new IllegalArgumentException("unknown parameter " + key);
    }
    if (view != value) {
      view.assign(value);
    }
  }
}
