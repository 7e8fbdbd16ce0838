package org.sparknmt.job.train;

import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.MultiDataSets;

/**
 * Validation loss (the training criterion, label smoothing included, per non-padding target
 * token) and token accuracy (teacher-forced argmax equals the gold token) over held-out batches,
 * with dropout off.
 */
public final class Validation {
  /** Token-weighted means over the valid set, and the BLEU of greedy translations (NaN if not measured). */
  public record Result(double loss, double accuracy, long tokens, double bleu) {
    Result withBleu(double value) {
      return new Result(loss, accuracy, tokens, value);
    }
  }

  private Validation() {}

  public static Result of(ComputationGraph graph, List<Batch> batches) {
    double lossSum = 0;
    long correct = 0;
    long tokens = 0;
    for (Batch batch : batches) {
      MultiDataSet data = MultiDataSets.of(batch);
      long batchTokens = FitBatchesAsGiven.targetTokens(batch);
      lossSum += graph.score(data, false) * batchTokens;
      correct += correctTokens(graph, data);
      tokens += batchTokens;
    }
    return new Result(lossSum / tokens, (double) correct / tokens, tokens, Double.NaN);
  }

  /** Positions where argmax over the vocabulary equals the label, counted where the label mask is 1. */
  static long correctTokens(ComputationGraph graph, MultiDataSet data) {
    INDArray probabilities = graph.output(false, data.getFeatures(), data.getFeaturesMaskArrays(),
        data.getLabelsMaskArrays())[0]; // [batch, vocab, time]
    INDArray predicted = Nd4j.argMax(probabilities, 1).castTo(data.getLabels(0).dataType()); // [batch, time]
    INDArray hits = predicted.eq(data.getLabels(0)).castTo(data.getLabels(0).dataType())
        .muli(data.getLabelsMaskArray(0));
    return hits.sumNumber().longValue();
  }
}
