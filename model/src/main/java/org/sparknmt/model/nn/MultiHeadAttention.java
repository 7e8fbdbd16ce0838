package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Section 3.2.2, MultiHead(Q, K, V) = Concat(head_1 … head_h)·W_O. One projection each for Q, K
 * and V of width d_model, split logically into h heads of d_k = d_model/h columns (head i uses
 * columns i·d_k … (i+1)·d_k − 1), so it equals h separate projections of width d_k.
 */
public final class MultiHeadAttention {
  private final int heads;
  private final int dModel;
  private final Linear wq;
  private final Linear wk;
  private final Linear wv;
  private final Linear wo;
  private final ScaledDotProductAttention attention;
  private int batch;
  private int tq;
  private int tk;

  /** Gradients with respect to the query input and the key/value input. */
  public record Gradients(INDArray dQuery, INDArray dKeyValue) {}

  public MultiHeadAttention(Params params, String name, int dModel, int heads, double attentionDropout) {
    this.heads = heads;
    this.dModel = dModel;
    this.wq = new Linear(params, name + ".q", dModel, dModel, true);
    this.wk = new Linear(params, name + ".k", dModel, dModel, true);
    this.wv = new Linear(params, name + ".v", dModel, dModel, true);
    this.wo = new Linear(params, name + ".o", dModel, dModel, true);
    this.attention = new ScaledDotProductAttention(attentionDropout);
  }

  /**
   * @param query [batch·t_q, d_model], rows grouped by sentence
   * @param keyValue [batch·t_k, d_model]
   * @return [batch·t_q, d_model]
   */
  public INDArray forward(INDArray query, INDArray keyValue, int batch, AttentionMask mask, boolean training) {
    this.batch = batch;
    this.tq = (int) (query.size(0) / batch);
    this.tk = (int) (keyValue.size(0) / batch);
    INDArray q = splitHeads(wq.forward(query), batch, tq);
    INDArray k = splitHeads(wk.forward(keyValue), batch, tk);
    INDArray v = splitHeads(wv.forward(keyValue), batch, tk);
    return wo.forward(mergeHeads(attention.forward(q, k, v, mask, training), batch, tq));
  }

  /** h, the number of heads. */
  public int heads() {
    return heads;
  }

  /** d_k = d_model/h, the width of a head. */
  public int dk() {
    return dModel / heads;
  }

  /** W^Q, the query projection of all heads side by side. */
  public Linear wq() {
    return wq;
  }

  /** W^K, the key projection of all heads side by side. */
  public Linear wk() {
    return wk;
  }

  /** W^V, the value projection of all heads side by side. */
  public Linear wv() {
    return wv;
  }

  /** W^O, the output projection of the concatenated heads. */
  public Linear wo() {
    return wo;
  }

  /** The last forward pass's weights, [batch, heads, t_q, t_k]. */
  public INDArray weights() {
    return attention.weights().reshape(batch, heads, tq, tk);
  }

  public Gradients backward(INDArray dy) {
    INDArray dConcat = wo.backward(dy);
    ScaledDotProductAttention.Gradients g = attention.backward(splitHeads(dConcat, batch, tq));
    INDArray dQuery = wq.backward(mergeHeads(g.dq(), batch, tq));
    INDArray dKeyValue = wk.backward(mergeHeads(g.dk(), batch, tk)).addi(wv.backward(mergeHeads(g.dv(), batch, tk)));
    return new Gradients(dQuery, dKeyValue);
  }

  /**
   * [n·t, d_model] -> [n, t, h, d_k] -> [n, h, t, d_k] -> [n·h, t, d_k]. With t = 1 (an incremental
   * step) both orders are the same memory, so no copy is needed.
   */
  public INDArray splitHeads(INDArray x, int n, int t) {
    int dk = dk();
    if (t == 1) {
      return x.reshape('c', (long) n * heads, 1, dk);
    }
    return x.reshape('c', n, t, heads, dk).permute(0, 2, 1, 3).dup('c').reshape('c', (long) n * heads, t, dk);
  }

  /** [n·h, t, d_k] -> [n, h, t, d_k] -> [n, t, h, d_k] -> [n·t, d_model] (with t = 1 the same memory). */
  private INDArray mergeHeads(INDArray x, int n, int t) {
    int dk = dk();
    if (t == 1) {
      return x.reshape('c', n, dModel);
    }
    return x.reshape('c', n, heads, t, dk).permute(0, 2, 1, 3).dup('c').reshape('c', (long) n * t, dModel);
  }
}
