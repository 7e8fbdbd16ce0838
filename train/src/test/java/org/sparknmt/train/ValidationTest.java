package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/** Validation's one pass gives the graph's own score and the accuracy of the graph's own output. */
class ValidationTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");
  private static final List<Batch> BATCHES = List.of(
      new Batch(List.of(new EncodedPair(0, new int[] {299, 280, 290}, new int[] {270, 275}),
          new EncodedPair(1, new int[] {281, 282}, new int[] {271, 272, 273, 274, 290}))),
      new Batch(List.of(new EncodedPair(2, new int[] {283, 284, 285, 286}, new int[] {276, 277}))));

  @Test
  void lossAndAccuracyAreTheGraphsScoreAndArgmax() {
    TrainConfig train = JobConfig.load(null, List.of("train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    ComputationGraph graph = new TrainJob(SPARK.sc(), "unused", TinyRun.MODEL, train, "").create(300);
    double lossSum = 0;
    long correct = 0;
    long tokens = 0;
    for (Batch batch : BATCHES) {
      MultiDataSet data = MultiDataSets.of(batch);
      long batchTokens = FitBatchesAsGiven.targetTokens(batch);
      lossSum += graph.score(data, false) * batchTokens;
      INDArray probabilities = graph.output(false, data.getFeatures(), data.getFeaturesMaskArrays(),
          data.getLabelsMaskArrays())[0]; // [batch, vocab, time]
      INDArray predicted = Nd4j.argMax(probabilities, 1).castTo(data.getLabels(0).dataType());
      correct += predicted.eq(data.getLabels(0)).castTo(data.getLabels(0).dataType())
          .muli(data.getLabelsMaskArray(0)).sumNumber().longValue();
      tokens += batchTokens;
    }

    Validation.Result result = Validation.of(graph, BATCHES);

    assertEquals(tokens, result.tokens());
    assertEquals(lossSum / tokens, result.loss(), 1e-6);
    assertEquals((double) correct / tokens, result.accuracy());
  }
}
