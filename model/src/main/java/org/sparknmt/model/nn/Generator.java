package org.sparknmt.model.nn;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.transforms.custom.SoftMax;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.sparknmt.model.arrays.Buffers;

/**
 * Section 3.4, the output projection to the vocabulary ("pre-softmax linear transformation"),
 * either its own [d_model, vocab] matrix and bias or the shared embedding matrix transposed.
 */
public final class Generator {
  private final Params params;
  private final Linear projection;
  private final String sharedEmbedding;
  private INDArray x;

  /** sharedEmbedding: the name of the [vocab, d_model] embedding to reuse, or null for an own projection. */
  public Generator(Params params, String name, int dModel, int vocabSize, String sharedEmbedding) {
    this.params = params;
    this.sharedEmbedding = sharedEmbedding;
    this.projection = sharedEmbedding == null ? new Linear(params, name, dModel, vocabSize, true) : null;
  }

  /** [n, d_model] -> logits [n, vocab]. */
  public INDArray logits(INDArray decoderOutput) {
    if (projection != null) {
      return projection.forward(decoderOutput);
    }
    x = decoderOutput;
    return Nd4j.gemm(decoderOutput, params.value(sharedEmbedding), false, true);
  }

  /** Whether the projection is the shared embedding: {@link #matrix} is [vocab, d_model], multiplied transposed. */
  public boolean sharesEmbedding() {
    return projection == null;
  }

  /** The projection's matrix: the shared embedding [vocab, d_model], or the own weights [d_model, vocab]. */
  public INDArray matrix() {
    return projection == null ? params.value(sharedEmbedding) : projection.weights();
  }

  /** The own projection's bias [vocab], or null with the shared embedding. */
  public INDArray bias() {
    return projection == null ? null : projection.bias();
  }

  /** log softmax over the vocabulary, [n, vocab]: z − (z_max − log p_max), see {@link LabelSmoothedCrossEntropy}. */
  public static INDArray logSoftmax(INDArray logits) {
    INDArray probabilities = Nd4j.exec(new SoftMax(logits, logits.ulike(), -1))[0];
    INDArray logSumExp = logits.max(true, 1).subi(Transforms.log(probabilities.max(true, 1), false));
    return logits.subColumnVector(logSumExp);
  }

  public INDArray backward(INDArray dLogits) {
    if (projection != null) {
      return projection.backward(dLogits);
    }
    INDArray dEmbedding = Nd4j.gemm(dLogits, x, true, false);
    params.gradient(sharedEmbedding).addi(dEmbedding);
    Buffers.free(dEmbedding);
    return Nd4j.gemm(dLogits, params.value(sharedEmbedding), false, false);
  }
}
