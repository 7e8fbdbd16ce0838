package org.sparknmt.model.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The embedding's gradient is the sum over each id's rows, exactly, however ND4J schedules its threads. */
class TokenEmbeddingTest {
  @Test
  void repeatedIdsAccumulateExactlyInPositionOrder() {
    int vocab = 3;
    int d = 64;
    int n = 4096;
    Random random = new Random(5);
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = random.nextInt(vocab);
    }
    float[][] dyRows = new float[n][d];
    for (float[] row : dyRows) {
      for (int j = 0; j < d; j++) {
        row[j] = (float) random.nextGaussian();
      }
    }
    INDArray dy = Nd4j.create(dyRows);
    float scale = (float) Math.sqrt(d);
    // the sum a single thread computes, row by row in position order, each term scaled as the layer scales it
    float[] expected = new float[vocab * d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        expected[ids[i] * d + j] += dyRows[i][j] * scale;
      }
    }
    // many ids repeat across both halves of the rows: unlocked, two threads add into one row at once
    for (int attempt = 0; attempt < 50; attempt++) {
      Params params = new Params();
      String weights = params.declare("embedding", Params.Init.SMALL_NORMAL, vocab, d);
      params.bindValues(params.split(Nd4j.zeros(DataType.FLOAT, 1, params.size())));
      params.bindGradients(params.split(Nd4j.zeros(DataType.FLOAT, 1, params.size())));
      TokenEmbedding embedding = new TokenEmbedding(params, weights, d);
      embedding.forward(ids);
      embedding.backward(dy);
      assertArrayEquals(expected, params.gradient(weights).dup().data().asFloat(), 0f, "attempt " + attempt);
    }
  }
}
