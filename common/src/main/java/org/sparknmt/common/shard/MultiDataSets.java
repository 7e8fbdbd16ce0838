package org.sparknmt.common.shard;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.common.vocab.SpecialTokens;

/**
 * The one place where a {@link Batch} becomes what the model trains on, the contract with
 * {@code model/}:
 * <pre>
 *   features      {src [batch, srcLen], tgtIn [batch, tgtLen]}   token ids as floats; src = tokens + EOS,
 *                                                                 tgtIn = BOS + target
 *   labels        {tgtOut [batch, tgtLen]}                       tgtOut = target + EOS
 *   feature masks {srcMask [batch, srcLen], tgtMask [batch, tgtLen]}   1 = real token, 0 = padding
 *   label masks   {tgtMask}
 * </pre>
 * Padding positions hold {@link SpecialTokens#PAD}.
 */
public final class MultiDataSets {
  private MultiDataSets() {}

  public static MultiDataSet of(Batch batch) {
    List<EncodedPair> pairs = batch.pairs();
    int b = pairs.size();
    int srcLen = batch.sourceLength();
    int tgtLen = batch.targetLength();
    float[] src = new float[b * srcLen];
    float[] srcMask = new float[b * srcLen];
    float[] tgtIn = new float[b * tgtLen];
    float[] tgtOut = new float[b * tgtLen];
    float[] tgtMask = new float[b * tgtLen];
    for (int i = 0; i < b; i++) {
      int[] s = pairs.get(i).source();
      int[] t = pairs.get(i).target();
      int row = i * srcLen;
      for (int j = 0; j < s.length; j++) {
        src[row + j] = s[j];
      }
      src[row + s.length] = SpecialTokens.EOS;
      java.util.Arrays.fill(srcMask, row, row + s.length + 1, 1f);
      row = i * tgtLen;
      tgtIn[row] = SpecialTokens.BOS;
      for (int j = 0; j < t.length; j++) {
        tgtIn[row + j + 1] = t[j];
        tgtOut[row + j] = t[j];
      }
      tgtOut[row + t.length] = SpecialTokens.EOS;
      java.util.Arrays.fill(tgtMask, row, row + t.length + 1, 1f);
    }
    INDArray mask = matrix(tgtMask, b, tgtLen);
    return new org.nd4j.linalg.dataset.MultiDataSet(
        new INDArray[] {matrix(src, b, srcLen), matrix(tgtIn, b, tgtLen)},
        new INDArray[] {matrix(tgtOut, b, tgtLen)},
        new INDArray[] {matrix(srcMask, b, srcLen), mask},
        new INDArray[] {mask});
  }

  private static INDArray matrix(float[] data, int rows, int columns) {
    return Nd4j.create(data, new long[] {rows, columns}, 'c');
  }
}
