package org.sparknmt.train;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.base.Seeds;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.model.arrays.Buffers;

/**
 * One optimizer step over a batch fitted in {@code train.micro_batches} consecutive parts (gradient
 * accumulation within the step, as fairseq's {@code --update-freq} and Marian's {@code --optimizer-delay}
 * do across batches): the batch is cut by sentences into N contiguous groups of about equal target tokens,
 * each group's forward and backward pass runs alone, so the step's workspace holds one group's
 * activations, and their gradients are summed into one, on which Adam, the learning-rate schedule, the
 * gradient clipping and the iteration count act once, as one {@code ComputationGraph.fit} of the whole
 * batch does.
 *
 * <p>The loss is a mean over the batch's target tokens (LabelSmoothedCrossEntropy), so group m, holding
 * t_m of the batch's T target tokens, has gradient g_m = (Σ over its tokens) / t_m, and the batch's is
 * Σ_m (t_m / T) g_m; the score is weighted the same way. Group m's dropout masks are drawn from the
 * batch's seed mixed with m, so a resumed run draws the same ones.
 *
 * <p>The sum lives in one array as large as the parameters, beside the network's own gradient, which
 * every backward pass overwrites; {@link #close} frees it.
 */
public final class MicroBatches implements AutoCloseable {
  private final ComputationGraph net;
  private final INDArray sum;

  /** Steps of {@code net} computed in parts, with a sum as large as its gradient. */
  public MicroBatches(ComputationGraph net) {
    this.net = net;
    if (net.getFlattenedGradients() == null) {
      // a network that has not been fitted yet: fit() would make the gradients' views first
      net.initGradientsView();
    }
    INDArray gradient = net.getFlattenedGradients();
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      this.sum = Nd4j.createUninitialized(gradient.dataType(), gradient.shape(), gradient.ordering());
    }
  }

  /** One part of a batch: its arrays, and its share of the batch's target tokens, the weight of its gradient and loss. */
  public record Part(MultiDataSet data, double weight) {}

  /** {@code batch} cut into at most {@code n} parts ({@link #split}), each as the model trains on it. */
  public static List<Part> parts(Batch batch, int n) {
    double total = FitBatchesAsGiven.targetTokens(batch);
    List<Part> parts = new ArrayList<>();
    for (Batch group : split(batch, n)) {
      parts.add(new Part(MultiDataSets.of(group), FitBatchesAsGiven.targetTokens(group) / total));
    }
    return parts;
  }

  /**
   * One optimizer step on the batch cut into {@code parts}, their dropout drawn from {@code seed}; returns
   * the whole batch's score (the mean loss per target token).
   */
  public double fit(List<Part> parts, long seed) {
    INDArray gradient = net.getFlattenedGradients();
    double score = 0;
    long pairs = 0;
    for (int m = 0; m < parts.size(); m++) {
      Part part = parts.get(m);
      MultiDataSet data = part.data();
      net.setInputs(data.getFeatures());
      net.setLabels(data.getLabels());
      net.setLayerMaskArrays(data.getFeaturesMaskArrays(), data.getLabelsMaskArrays());
      Nd4j.getRandom().setSeed(Seeds.mix(seed, m));
      net.computeGradientAndScore();
      score += part.weight() * net.score();
      // the network's gradient is scratch until the next backward pass overwrites it
      if (m == 0) {
        sum.assign(gradient.muli(part.weight()));
      } else {
        sum.addi(gradient.muli(part.weight()));
      }
      net.clearLayerMaskArrays();
      net.clearLayersStates();
      pairs += data.getFeatures(0).size(0);
    }
    gradient.assign(sum);
    update(Math.toIntExact(pairs));
    return score;
  }

  /**
   * What StochasticGradientDescent.optimize does after its gradient: the updater (clipping, the
   * schedule's learning rate, Adam) turns the network's gradient into the step, the parameters move
   * by it, the listeners hear of the iteration, and the iteration count advances.
   */
  private void update(int batchSize) {
    // the last part's gradient: the network's flat gradient and its per-parameter views, which hold the sum now
    Gradient gradient = net.gradient();
    int iteration = net.getIterationCount();
    int epoch = net.getEpochCount();
    net.getUpdater().update(gradient, iteration, epoch, batchSize, LayerWorkspaceMgr.noWorkspaces());
    net.params().subi(gradient.gradient());
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      for (TrainingListener listener : net.getListeners()) {
        listener.iterationDone(net, iteration, epoch);
      }
    }
    net.getConfiguration().setIterationCount(iteration + 1);
  }

  /**
   * {@code batch} cut into min(n, pairs) contiguous groups of its pairs, in order, each non-empty, with
   * about equal target tokens (each target plus its EOS): group g ends where the running sum comes
   * nearest (g + 1) / groups of the batch's.
   */
  public static List<Batch> split(Batch batch, int n) {
    List<EncodedPair> pairs = batch.pairs();
    int groups = Math.min(n, pairs.size());
    long[] before = new long[pairs.size() + 1];
    for (int i = 0; i < pairs.size(); i++) {
      before[i + 1] = before[i] + pairs.get(i).target().length + 1;
    }
    List<Batch> parts = new ArrayList<>(groups);
    int start = 0;
    for (int g = 0; g < groups; g++) {
      int last = pairs.size() - (groups - 1 - g); // leaves a pair for each later group
      int end = last;
      if (g < groups - 1) {
        double goal = (double) before[pairs.size()] * (g + 1) / groups;
        end = start + 1;
        while (end < last && before[end] < goal) {
          end++;
        }
        if (end > start + 1 && goal - before[end - 1] <= before[end] - goal) {
          end--;
        }
      }
      parts.add(new Batch(pairs.subList(start, end)));
      start = end;
    }
    return parts;
  }

  @Override
  public void close() {
    Buffers.free(sum);
  }
}
