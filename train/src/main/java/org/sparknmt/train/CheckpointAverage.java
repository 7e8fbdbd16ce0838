package org.sparknmt.train;

import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.common.checkpoint.TrainedModel;

/** Checkpoint averaging: the mean of the last checkpoints' parameters, as {@code sparknmt average} saves it. */
public final class CheckpointAverage {
  private CheckpointAverage() {}

  /** The newest checkpoint's model with its parameters replaced by the mean over {@code chosen}. */
  public static ComputationGraph average(CheckpointStore store, List<CheckpointStore.Checkpoint> chosen) {
    ComputationGraph result = null;
    INDArray sum = null;
    for (CheckpointStore.Checkpoint checkpoint : chosen) {
      ComputationGraph graph = TrainedModel.read(store, checkpoint, checkpoint.state().vocabularySha256()).graph();
      if (sum == null) {
        sum = graph.params().dup();
      } else if (sum.length() != graph.params().length()) {
        throw new IllegalArgumentException(checkpoint.path() + " has " + graph.params().length()
            + " parameters, the others " + sum.length() + ": not the same model");
      } else {
        sum.addi(graph.params());
      }
      result = graph;
    }
    result.setParams(sum.divi(chosen.size()));
    return result;
  }
}
