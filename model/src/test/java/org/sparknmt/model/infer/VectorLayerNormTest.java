package org.sparknmt.model.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.sparknmt.model.nn.LayerNorm;
import org.sparknmt.model.nn.Params;

/** LayerNorm's inference in Java against its ND4J forward pass (itself in ConceptGradientTest), gain and bias not 1 and 0. */
class VectorLayerNormTest {
  @ParameterizedTest(name = "d = {0}")
  @ValueSource(ints = {24, 256})
  void equalsTheForwardPass(int d) {
    Nd4j.getRandom().setSeed(11);
    Params params = new Params();
    LayerNorm norm = new LayerNorm(params, "norm", d);
    // the flat parameters as the layer holds them: gain and bias are views into one row
    params.bindValues(params.split(Nd4j.randn(DataType.FLOAT, 1, params.size()).addi(1)));
    // rows of very different scales, and a view (a step's rows are often one)
    INDArray x = Nd4j.randn(DataType.FLOAT, 9, d).mulColumnVector(Nd4j.createFromArray(1e-3f, 1, 30, 1, 1, 5, 1, 1, 200f).reshape(9, 1));
    INDArray rows = x.get(NDArrayIndex.interval(2, 9), NDArrayIndex.all());

    INDArray expected = norm.forward(rows.dup());
    INDArray actual = VectorLayerNorm.apply(norm, rows);

    assertArrayEquals(expected.shape(), actual.shape());
    assertArrayEquals(expected.data().asFloat(), actual.data().asFloat(), 2e-5f);
    assertEquals(DataType.FLOAT, actual.dataType());
  }
}
