package org.sparknmt.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunLock;
import org.sparknmt.base.run.RunMetric;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.train.CheckpointAverage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt average}: the parameters of the last K checkpoints averaged into a new one
 * (Vaswani et al. 2017, Section 6.1: "averaging the last 5 checkpoints"), written as
 * {@code RUN/checkpoints/avg-last-K-step-NNNNNNNN}. Only the parameters are averaged; Adam's state
 * is the newest checkpoint's (it serves training, not translation).
 */
@Command(name = "average", mixinStandardHelpOptions = true,
    description = "Average the parameters of the last K checkpoints of a run into a new checkpoint (RUN/checkpoints/avg-last-K-step-N).")
public final class AverageCommand implements Callable<Integer> {
  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory with checkpoints.")
  String run;

  @Option(names = "--last", defaultValue = "5", paramLabel = "K", description = "How many of the newest checkpoints. Default: ${DEFAULT-VALUE}.")
  int last;

  @Mixin RunLockOption runLock;

  @Override
  public Integer call() throws Exception {
    if (last < 1) {
      throw new UsageException("--last must be at least 1, got " + last);
    }
    Configuration hadoop = new Configuration();
    try (RunLock lock = runLock.acquire(run, "average", hadoop)) {
      return averageInto(new CheckpointStore(run, hadoop));
    }
  }

  private int averageInto(CheckpointStore store) throws java.io.IOException {
    List<CheckpointStore.Checkpoint> all = store.list();
    if (all.size() < last) {
      throw new UsageException("--last " + last + ": " + store.root() + " holds only " + all.size()
          + " intact checkpoint(s)");
    }
    List<CheckpointStore.Checkpoint> chosen = all.subList(all.size() - last, all.size());
    CheckpointStore.Checkpoint newest = chosen.get(chosen.size() - 1);
    ComputationGraph averaged = CheckpointAverage.average(store, chosen);
    TrainingState state = newest.state();
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put(RunMetric.AVERAGED_CHECKPOINTS.key(), (double) last);
    metrics.put(RunMetric.FIRST_STEP.key(), (double) chosen.get(0).step());
    TrainingState averagedState = state.withMetrics(metrics);
    String name = RunLayout.averagedCheckpointName(last, newest.step());
    var path = store.save(name, averagedState, out -> ModelArtifact.write(averaged, state.vocabularySha256(), out), null);
    System.out.printf("average: %s = mean of %s%n", path,
        String.join(", ", chosen.stream().map(c -> RunLayout.checkpointName(c.step())).toList()));
    return 0;
  }
}
