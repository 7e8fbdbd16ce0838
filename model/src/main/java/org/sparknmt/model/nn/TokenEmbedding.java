package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.scatter.ScatterAdd;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Section 3.4: learned token embeddings multiplied by √d_model. The matrix [vocab, d_model] may be
 * shared with the other embedding and the output projection, so it is declared by the caller.
 */
public final class TokenEmbedding {
  private final Params params;
  private final String weights;
  private final double scale;
  private int[] ids;

  public TokenEmbedding(Params params, String weights, int dModel) {
    this.params = params;
    this.weights = weights;
    this.scale = Math.sqrt(dModel);
  }

  /** ids: n token ids -> [n, d_model]. */
  public INDArray forward(int[] tokenIds) {
    this.ids = tokenIds;
    return Nd4j.pullRows(params.value(weights), 1, tokenIds).muli(scale);
  }

  /** Adds √d_model·dy[i] to row ids[i] of the gradient (repeated ids accumulate). */
  public void backward(INDArray dy) {
    INDArray gradient = params.gradient(weights);
    ScatterAdd op = new ScatterAdd(gradient, Nd4j.createFromArray(ids), dy.mul(scale));
    op.addOutputArgument(gradient);
    // libnd4j adds the rows on several threads unless locked: two threads adding to one repeated id's row
    // race, and a step's gradient would depend on the schedule.
    op.addBArgument(true);
    Nd4j.exec(op);
  }
}
