package org.sparknmt.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The attention of an incremental step, in Java, against {@link ScaledDotProductAttention} (the training
 * forward pass, itself checked against PyTorch's vectors): keys and values as the cache holds them (the
 * filled positions of a larger buffer), with and without a padding mask, one query per head and several.
 */
class IncrementalAttentionTest {
  private static final int HEADS = 4;
  private static final int DK = 8;

  @ParameterizedTest(name = "{0} sequences, {1} queries, {2} keys of a buffer of {3}, masked {4}")
  @CsvSource({"3, 1, 5, 9, false", "2, 4, 6, 6, true", "5, 1, 1, 4, false", "2, 3, 7, 10, true"})
  void equalsTheTrainingForwardPass(int n, int tq, int tk, int buffered, boolean masked) {
    Nd4j.getRandom().setSeed(n * 100L + tq * 10L + tk);
    int b = n * HEADS;
    INDArray q = Nd4j.randn(DataType.FLOAT, b, tq, DK);
    INDArray keyBuffer = Nd4j.randn(DataType.FLOAT, b, buffered, DK);
    INDArray valueBuffer = Nd4j.randn(DataType.FLOAT, b, buffered, DK);
    INDArray keys = keyBuffer.get(NDArrayIndex.all(), NDArrayIndex.interval(0, tk), NDArrayIndex.all());
    INDArray values = valueBuffer.get(NDArrayIndex.all(), NDArrayIndex.interval(0, tk), NDArrayIndex.all());
    AttentionMask mask = null;
    if (masked) {
      INDArray keyKeep = Nd4j.ones(DataType.FLOAT, n, tk);
      keyKeep.putScalar(0, tk - 1, 0);
      // a sequence with no visible key: its queries get zeros, as in the training pass
      keyKeep.getRow(n - 1).assign(0);
      mask = AttentionMask.of(keyKeep, n, tq, tk, HEADS, false, DataType.FLOAT);
    }
    INDArray expected = new ScaledDotProductAttention(0).forward(q, keys.dup('c'), values.dup('c'), mask, false);
    // heads side by side: [n·h, t_q, d_k] -> [n, t_q, h, d_k] -> [n·t_q, h·d_k], the projection's layout
    INDArray queries = q.reshape('c', n, HEADS, tq, DK).permute(0, 2, 1, 3).dup('c').reshape('c', (long) n * tq, HEADS * DK);
    INDArray expectedRows = expected.reshape('c', n, HEADS, tq, DK).permute(0, 2, 1, 3).dup('c')
        .reshape('c', (long) n * tq, HEADS * DK);

    INDArray actual = IncrementalAttention.attend(queries, new KeysValues(keys, values), mask, n, HEADS);

    assertArrayEquals(expectedRows.shape(), actual.shape());
    assertArrayEquals(expectedRows.data().asFloat(), actual.dup('c').data().asFloat(), 1e-5f);
    if (masked) {
      assertEquals(0, actual.getRow((long) n * tq - 1).amaxNumber().doubleValue());
    }
  }
}
