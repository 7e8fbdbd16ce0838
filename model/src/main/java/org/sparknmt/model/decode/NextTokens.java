package org.sparknmt.model.decode;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.impl.reduce.custom.LogSumExp;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.nn.Transformer;

/**
 * What a beam needs of the output distribution: the k most probable next tokens of each hypothesis and
 * their log-probabilities, best first. Only these k leave the native arrays, not the [n, vocab] rows.
 *
 * @param tokens [hypotheses][k] token ids
 * @param logProbabilities [hypotheses][k] log p of those tokens
 */
record NextTokens(int[][] tokens, float[][] logProbabilities) {

  /**
   * The k best tokens of each decoder state [n, d_model]: the top k of the logits (their order is the
   * order of the log-probabilities), log p = z − log Σ exp z.
   */
  static NextTokens of(Transformer model, INDArray states, int k) {
    INDArray logits = model.logits(states);
    // ND4J 1.0.0-M2's TopK(INDArray, k, sorted) passes `sorted` where libnd4j reads k (so k = 1): name the arguments
    INDArray[] top = Nd4j.exec(DynamicCustomOp.builder("top_k").addInputs(logits)
        .addIntegerArguments((int) Math.min(k, logits.size(1))).addBooleanArguments(true).build());
    INDArray logNormalizer = Nd4j.exec(new LogSumExp(logits, true, 1))[0];
    INDArray logProbabilities = top[0].subColumnVector(logNormalizer).castTo(DataType.FLOAT);
    return new NextTokens(top[1].toIntMatrix(), logProbabilities.toFloatMatrix());
  }

  /** Rows from (inclusive) to (exclusive): one sentence's hypotheses. */
  NextTokens rows(int from, int to) {
    return new NextTokens(Arrays.copyOfRange(tokens, from, to), Arrays.copyOfRange(logProbabilities, from, to));
  }
}
