package org.sparknmt.model.decode;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.nn.Generator;

/**
 * The output projection restricted to some target tokens (a shortlist's candidates): their rows of the
 * generator's matrix and bias, gathered once per batch, so that each search step's projection multiplies by
 * those rows alone. The product is laid out as the generator's own (the same operands, in the same order and
 * orientation), so a restriction to every token gives the generator's logits bit for bit.
 */
final class ShortlistProjection {
  private final INDArray matrix;
  private final boolean transposed;
  private final INDArray bias;

  private ShortlistProjection(INDArray matrix, boolean transposed, INDArray bias) {
    this.matrix = matrix;
    this.transposed = transposed;
    this.bias = bias;
  }

  /** The generator's rows of tokens ids, in that order; allocated in the current workspace. */
  static ShortlistProjection of(Generator generator, int[] ids) {
    INDArray full = generator.matrix();
    if (generator.sharesEmbedding()) {
      // [vocab, d_model]: the tokens' rows
      return new ShortlistProjection(full.getRows(ids).dup('c'), true, null);
    }
    // [d_model, vocab]: the tokens' columns, kept row-major as the generator's matrix is
    INDArray b = generator.bias();
    INDArray bias = b == null ? null : b.reshape(1, b.length()).getColumns(ids).dup('c').reshape(ids.length);
    return new ShortlistProjection(full.getColumns(ids).dup('c'), false, bias);
  }

  /** [n, d_model] -> logits [n, tokens], column j that of the j-th token. */
  INDArray logits(INDArray decoderOutput) {
    INDArray y = Nd4j.gemm(decoderOutput, matrix, false, transposed);
    if (bias != null) {
      y.addiRowVector(bias);
    }
    return y;
  }
}
