package org.sparknmt.train;

import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.dl4j.SourceTargetVertex;
import org.sparknmt.model.infer.PassWorkspace;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerBatch;

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

  /**
   * One forward pass per batch through the graph's Transformer, which gives the loss as the graph's
   * score does and the predictions: scoring with the graph and then asking it for its output took two
   * passes, most of a validation's time.
   */
  public static Result of(ComputationGraph graph, List<Batch> batches) {
    Transformer model = TransformerFactory.newTransformer(graph);
    DataType type = graph.getLayer(TransformerFactory.TRANSFORMER).params().dataType();
    double lossSum = 0;
    long correct = 0;
    long tokens = 0;
    for (Batch batch : batches) {
      long batchTokens = FitBatchesAsGiven.targetTokens(batch);
      try (MemoryWorkspace pass = PassWorkspace.open(PassWorkspace.INFERENCE)) {
        Transformer.Validated v = model.validate(transformerBatch(MultiDataSets.of(batch)), type);
        lossSum += v.loss() * batchTokens;
        correct += v.correct();
      }
      tokens += batchTokens;
    }
    return new Result(lossSum / tokens, (double) correct / tokens, tokens, Double.NaN);
  }

  /** The graph's inputs (source, target in; their masks) and labels as the Transformer takes them. */
  private static TransformerBatch transformerBatch(MultiDataSet data) {
    INDArray source = data.getFeatures(0);
    return new TransformerBatch((int) source.size(0), SourceTargetVertex.ids(source),
        data.getFeaturesMaskArray(0).dup('c'), SourceTargetVertex.ids(data.getFeatures(1)),
        data.getFeaturesMaskArray(1).dup('c'), SourceTargetVertex.ids(data.getLabels(0)));
  }
}
