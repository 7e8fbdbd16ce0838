package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** Padding and the causal mask really hide what they hide: changing a hidden token changes no output. */
class MaskTest {
  private static final DataType T = DataType.FLOAT;
  private final ComputationGraph graph = TransformerFactory.create(
      TestModels.minimal().heads(4).layers(2).dropout(0.1).attentionDropout(0.1).build(), 10, 3);
  private final INDArray source = TinyBatches.ids(T, new int[][] {{3, 4, 5, 6, 2}, {7, 3, 2, 0, 0}});
  private final INDArray sourceMask = TinyBatches.mask(T, 5, 5, 3);
  private final INDArray targetIn = TinyBatches.ids(T, new int[][] {{1, 6, 5, 4}, {1, 3, 9, 0}});
  private final INDArray targetMask = TinyBatches.mask(T, 4, 4, 3);

  private INDArray output(INDArray src, INDArray tgt) {
    // [batch, vocab, t_tgt]
    return graph.output(false, new INDArray[] {src, tgt}, new INDArray[] {sourceMask, targetMask})[0];
  }

  @Test
  void paddedSourceTokenChangesNoOutput() {
    INDArray before = output(source, targetIn);
    INDArray changed = source.dup();
    changed.putScalar(1, 4, 8);
    changed.putScalar(1, 3, 5);
    assertEquals(before, output(changed, targetIn));
    INDArray real = source.dup();
    real.putScalar(1, 1, 8);
    assertNotEquals(before, output(real, targetIn), "a real source token does change the output");
  }

  @Test
  void futureTargetTokenChangesNoEarlierOutput() {
    INDArray before = output(source, targetIn);
    INDArray changed = targetIn.dup();
    changed.putScalar(0, 2, 9);
    INDArray after = output(source, changed);
    assertEquals(prefix(before, 2), prefix(after, 2), "positions 0 and 1 cannot see position 2");
    assertNotEquals(before.get(NDArrayIndex.point(0), NDArrayIndex.all(), NDArrayIndex.point(2)),
        after.get(NDArrayIndex.point(0), NDArrayIndex.all(), NDArrayIndex.point(2)), "position 2 sees itself");
  }

  @Test
  void inferenceIsDeterministicDespiteDropoutInTheConfig() {
    assertEquals(output(source, targetIn), output(source, targetIn));
  }

  private static INDArray prefix(INDArray out, int t) {
    return out.get(NDArrayIndex.all(), NDArrayIndex.all(), NDArrayIndex.interval(0, t)).dup();
  }
}
