package org.sparknmt.model.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The parameter table of one model: every module declares its named tensors here while it is built,
 * then reads them (and accumulates their gradients) through views of DL4J's flat parameter and
 * gradient vectors. Declaration order is the flat layout, so conf, updater state and checkpoints
 * agree on it.
 */
public final class Params {

  /** How a tensor is initialized. */
  public enum Init {
    /** Glorot uniform over the two dimensions of a [in, out] matrix. */
    XAVIER,
    /** N(0, d_model^-1/2), so that the embedding scaled by sqrt(d_model) has unit variance. */
    EMBEDDING,
    /** N(0, 0.02), for learned positional embeddings. */
    SMALL_NORMAL,
    ONES,
    ZEROS
  }

  /** One declared tensor. */
  public record Entry(String name, long[] shape, Init init, long offset, long length) {}

  private final Map<String, Entry> layout = new LinkedHashMap<>();
  private long size;
  private Map<String, INDArray> values = Map.of();
  private Map<String, INDArray> gradients = Map.of();

  /** Declares a tensor; returns its name for the module to keep. */
  public String declare(String name, Init init, long... shape) {
    if (layout.containsKey(name)) {
      throw new IllegalStateException("parameter declared twice: " + name);
    }
    long length = 1;
    for (long s : shape) {
      length *= s;
    }
    layout.put(name, new Entry(name, shape.clone(), init, size, length));
    size += length;
    return name;
  }

  /** The total number of parameters. */
  public long size() {
    return size;
  }

  public Map<String, Entry> layout() {
    return Collections.unmodifiableMap(layout);
  }

  /** Splits a flat vector of {@link #size()} elements into named views, in declaration order. */
  public Map<String, INDArray> split(INDArray flat) {
    if (flat.length() != size) {
      throw new IllegalArgumentException("flat vector has " + flat.length() + " elements, the layout " + size);
    }
    INDArray vector = flat.reshape(flat.length());
    Map<String, INDArray> views = new LinkedHashMap<>();
    for (Entry e : layout.values()) {
      views.put(e.name(), vector.get(NDArrayIndex.interval(e.offset(), e.offset() + e.length())).reshape('c', e.shape()));
    }
    return views;
  }

  /** Reads parameter values from these views of the flat parameter vector. */
  public void bindValues(Map<String, INDArray> views) {
    values = views;
  }

  /** Accumulates gradients into these views of the flat gradient vector. */
  public void bindGradients(Map<String, INDArray> views) {
    gradients = views;
  }

  /** Fills each view with its declared initialization, drawing from ND4J's (seeded) random generator. */
  public void initialize(Map<String, INDArray> views, int dModel) {
    for (Entry e : layout.values()) {
      INDArray v = views.get(e.name());
      switch (e.init()) {
        case XAVIER -> {
          double a = Math.sqrt(6.0 / (e.shape()[0] + e.shape()[e.shape().length - 1]));
          v.assign(Nd4j.rand(v.dataType(), e.shape()).muli(2 * a).subi(a));
        }
        case EMBEDDING -> v.assign(Nd4j.randn(v.dataType(), e.shape()).muli(Math.pow(dModel, -0.5)));
        case SMALL_NORMAL -> v.assign(Nd4j.randn(v.dataType(), e.shape()).muli(0.02));
        case ONES -> v.assign(1);
        case ZEROS -> v.assign(0);
      }
    }
  }

  public INDArray value(String name) {
    INDArray v = values.get(name);
    if (v == null) {
      throw new IllegalStateException("parameter not bound: " + name);
    }
    return v;
  }

  /** The gradient view of a parameter; backward passes add into it. */
  public INDArray gradient(String name) {
    INDArray g = gradients.get(name);
    if (g == null) {
      throw new IllegalStateException("gradient not bound: " + name);
    }
    return g;
  }
}
