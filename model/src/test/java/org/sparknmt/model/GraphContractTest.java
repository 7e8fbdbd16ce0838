package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.MultiDataSet;
import org.sparknmt.model.nn.TransformerConfig;

/** What the training job relies on: dynamic shapes, conf clone / JSON (Spark workers), the mask contract. */
class GraphContractTest {
  private static final TransformerConfig CONFIG =
      TestModels.minimal().maxLength(64).build();

  @Test
  void oneParameterSetTrainsOnBatchesOfAnyShape() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    Random random = new Random(3);
    for (int size : new int[] {2, 7, 3}) {
      MultiDataSet batch = CopyTaskTest.batch(CopyTaskTest.sentences(random, size));
      graph.fit(batch);
      assertTrue(Double.isFinite(graph.score()));
      INDArray out = graph.output(false, batch.getFeatures(), batch.getFeaturesMaskArrays())[0];
      assertArrayEquals(new long[] {size, 12, batch.getFeatures(1).size(1)}, out.shape());
    }
  }

  @Test
  void clonedAndJsonConfigurationsBuildTheSameTrainableModel() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    ComputationGraphConfiguration clone = graph.getConfiguration().clone();
    assertEquals(graph.getConfiguration(), ComputationGraphConfiguration.fromJson(graph.getConfiguration().toJson()));
    ComputationGraph worker = new ComputationGraph(clone);
    worker.init(graph.params().dup(), true);
    MultiDataSet batch = CopyTaskTest.batch(CopyTaskTest.sentences(new Random(4), 5));
    graph.fit(batch);
    worker.fit(batch);
    assertEquals(graph.params(), worker.params(), "a worker rebuilt from conf.clone() takes the same step");
  }

  @Test
  void scoreIsTheMeanLossPerTargetTokenWhateverThePadding() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    MultiDataSet batch = CopyTaskTest.batch(new int[][] {{3, 4, 5}});
    MultiDataSet padded = CopyTaskTest.batch(new int[][] {{3, 4, 5}, {6, 7, 8, 9, 10, 11, 3}});
    double alone = graph.score(batch);
    MultiDataSet first = new MultiDataSet(
        new INDArray[] {padded.getFeatures(0).getRow(0, true), padded.getFeatures(1).getRow(0, true)},
        new INDArray[] {padded.getLabels(0).getRow(0, true)},
        new INDArray[] {padded.getFeaturesMaskArray(0).getRow(0, true), padded.getFeaturesMaskArray(1).getRow(0, true)},
        new INDArray[] {padded.getLabelsMaskArray(0).getRow(0, true)});
    assertEquals(alone, graph.score(first), 1e-5, "padding to a longer batch length changes nothing");
  }

  @Test
  void learningRateCanBeScheduledFromOutside() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    graph.setLearningRate(0.25);
    assertEquals(0.25, graph.getLearningRate(TransformerFactory.TRANSFORMER), 0.0);
  }

  @Test
  void aSingleFeatureMaskIsAClearError() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    MultiDataSet batch = CopyTaskTest.batch(CopyTaskTest.sentences(new Random(4), 3));
    MultiDataSet broken = new MultiDataSet(batch.getFeatures(), batch.getLabels(),
        new INDArray[] {batch.getFeaturesMaskArray(0), null}, batch.getLabelsMaskArrays());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> graph.fit(broken));
    assertTrue(e.getMessage().contains("both feature masks"), e.getMessage());
  }

  @Test
  void labelsMustBeTokenIdsOfTheTargetShape() {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 2);
    MultiDataSet batch = CopyTaskTest.batch(CopyTaskTest.sentences(new Random(4), 3));
    MultiDataSet oneHot = new MultiDataSet(batch.getFeatures(),
        new INDArray[] {org.nd4j.linalg.factory.Nd4j.zeros(DataType.FLOAT, 3, 12, batch.getFeatures(1).size(1))},
        batch.getFeaturesMaskArrays(), batch.getLabelsMaskArrays());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> graph.fit(oneHot));
    assertTrue(e.getMessage().contains("labels must be token ids"), e.getMessage());
  }
}
