package org.sparknmt.model.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.sparknmt.model.nn.AttentionMask;
import org.sparknmt.model.nn.ScaledDotProductAttention;

/**
 * The attention of an incremental step, in Java, against {@link ScaledDotProductAttention} (the training
 * forward pass, itself checked against PyTorch's vectors): keys and values as the cache holds them (the
 * first positions of a longer buffer, some of its sequences in another order), with and without a padding
 * mask, one query per head and several.
 */
class IncrementalAttentionTest {
  private static final int HEADS = 4;
  private static final int DK = 8;

  @ParameterizedTest(name = "sequences {0} of 4, {1} queries, {2} keys of a buffer of {3}, masked {4}")
  @CsvSource({"'2 0 3', 1, 5, 9, false", "'1 3', 4, 6, 6, true", "'0 1 2 3', 1, 1, 4, false", "'3 1', 3, 7, 10, true"})
  void equalsTheTrainingForwardPass(String read, int tq, int tk, int buffered, boolean masked) {
    int[] sequences = Arrays.stream(read.split(" ")).mapToInt(Integer::parseInt).toArray();
    int n = sequences.length;
    int stored = 4;
    Nd4j.getRandom().setSeed(n * 100L + tq * 10L + tk);
    INDArray q = Nd4j.randn(DataType.FLOAT, (long) n * HEADS, tq, DK);
    INDArray keyBuffer = Nd4j.randn(DataType.FLOAT, (long) stored * HEADS, buffered, DK);
    INDArray valueBuffer = Nd4j.randn(DataType.FLOAT, (long) stored * HEADS, buffered, DK);
    float[] keep = null;
    AttentionMask mask = null;
    if (masked) {
      INDArray storedKeep = Nd4j.ones(DataType.FLOAT, stored, buffered);
      storedKeep.putScalar(sequences[0], tk - 1, 0);
      // a sequence with no visible key: its queries get zeros, as in the training pass
      storedKeep.getRow(sequences[n - 1]).assign(0);
      keep = storedKeep.data().asFloat();
      INDArray readKeep = Nd4j.pullRows(storedKeep, 1, sequences)
          .get(NDArrayIndex.all(), NDArrayIndex.interval(0, tk));
      mask = AttentionMask.of(readKeep, n, tq, tk, HEADS, false, DataType.FLOAT);
    }
    INDArray expected = new ScaledDotProductAttention(0).forward(q, read(keyBuffer, sequences, tk),
        read(valueBuffer, sequences, tk), mask, false);
    // heads side by side: [n·h, t_q, d_k] -> [n, t_q, h, d_k] -> [n·t_q, h·d_k], the projection's layout
    INDArray queries = q.reshape('c', n, HEADS, tq, DK).permute(0, 2, 1, 3).dup('c').reshape('c', (long) n * tq, HEADS * DK);
    INDArray expectedRows = expected.reshape('c', n, HEADS, tq, DK).permute(0, 2, 1, 3).dup('c')
        .reshape('c', (long) n * tq, HEADS * DK);

    INDArray actual = IncrementalAttention.attend(queries,
        new CachedKeysValues(CachedKeysValues.transposed(keyBuffer), valueBuffer, sequences, tk, keep), HEADS);

    assertArrayEquals(expectedRows.shape(), actual.shape());
    assertArrayEquals(expectedRows.data().asFloat(), actual.dup('c').data().asFloat(), 1e-5f);
    if (masked) {
      assertEquals(0, actual.getRow((long) n * tq - 1).amaxNumber().doubleValue());
    }
  }

  /** The first tk positions of the given sequences' h heads, in that order: [n·h, tk, d_k]. */
  private static INDArray read(INDArray buffer, int[] sequences, int tk) {
    INDArray out = Nd4j.create(DataType.FLOAT, (long) sequences.length * HEADS, tk, DK);
    for (int i = 0; i < sequences.length; i++) {
      for (int head = 0; head < HEADS; head++) {
        out.get(NDArrayIndex.point((long) i * HEADS + head), NDArrayIndex.all(), NDArrayIndex.all())
            .assign(buffer.get(NDArrayIndex.point((long) sequences[i] * HEADS + head), NDArrayIndex.interval(0, tk),
                NDArrayIndex.all()));
      }
    }
    return out;
  }
}
