package org.sparknmt.model.nn;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Which keys each query may attend to (Section 3.2.3): key padding and, in decoder
 * self-attention, the causal ("subsequent") mask. Built once per batch and shared by all layers.
 *
 * @param keep [batch·heads, t_q, t_k], 1 where attention is allowed, 0 where the weight must be exactly 0
 * @param bias [batch·heads, t_q, t_k], 0 where allowed, −1e9 where masked (added to the scores)
 */
public record AttentionMask(INDArray keep, INDArray bias) {

  static final double MASKED_SCORE = -1e9;

  /**
   * @param keyKeep [batch, t_k], 1 for a real token, 0 for padding (DL4J's mask convention); null: no padding
   * @param batch the batch size
   * @param tq number of query positions
   * @param tk number of key positions
   * @param heads h, the mask is repeated for every head
   * @param causal whether query i may only see keys j ≤ i
   */
  public static AttentionMask of(INDArray keyKeep, int batch, int tq, int tk, int heads, boolean causal, DataType type) {
    INDArray keep = keyKeep == null
        ? Nd4j.ones(type, batch, tq, tk)
        : keyKeep.castTo(type).reshape(batch, 1, tk).broadcast(batch, tq, tk);
    if (causal) {
      keep = keep.mul(subsequent(tq, tk, type).reshape(1, tq, tk).broadcast(batch, tq, tk));
    }
    // [batch, t_q, t_k] -> [batch, heads, t_q, t_k] -> [batch·heads, t_q, t_k]
    INDArray perHead = keep.reshape(batch, 1, tq, tk).broadcast(batch, heads, tq, tk).reshape(batch * heads, tq, tk);
    return new AttentionMask(perHead, perHead.sub(1.0).muli(-MASKED_SCORE));
  }

  /** The causal mask [t_q, t_k]: 1 where key j ≤ query i (the Annotated Transformer's subsequent_mask). */
  public static INDArray subsequent(int tq, int tk, DataType type) {
    INDArray m = Nd4j.zeros(type, tq, tk);
    for (int i = 0; i < tq; i++) {
      m.get(org.nd4j.linalg.indexing.NDArrayIndex.point(i),
          org.nd4j.linalg.indexing.NDArrayIndex.interval(0, Math.min(i + 1, tk))).assign(1);
    }
    return m;
  }
}
