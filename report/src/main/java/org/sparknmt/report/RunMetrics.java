package org.sparknmt.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;

/**
 * {@code RUN/metrics/train.jsonl} (step, epoch, loss, lr, tokens_per_s, ...) and
 * {@code valid.jsonl} (step, epoch, loss, accuracy, bleu, ...); either may be absent.
 */
public record RunMetrics(List<JsonNode> train, List<JsonNode> valid) {
  public RunMetrics {
    train = List.copyOf(train);
    valid = List.copyOf(valid);
  }

  public static RunMetrics read(String run, Configuration hadoop) throws IOException {
    RunLayout layout = RunLayout.of(run);
    return new RunMetrics(JsonFiles.lines(layout.metricsLog(RunLayout.TRAIN_LOG), hadoop),
        JsonFiles.lines(layout.metricsLog(RunLayout.VALID_LOG), hadoop));
  }

  /** {@code metric} against the step over the records that have it as a number. */
  public static Charts.Series series(String name, List<JsonNode> records, RunMetric metric) {
    String field = metric.key();
    String step = RunMetric.STEP.key();
    List<JsonNode> with = records.stream().filter(r -> r.path(field).isNumber() && r.path(step).isNumber()).toList();
    double[] x = new double[with.size()];
    double[] y = new double[with.size()];
    for (int i = 0; i < with.size(); i++) {
      x[i] = with.get(i).get(step).asDouble();
      y[i] = with.get(i).get(field).asDouble();
    }
    return new Charts.Series(name, x, y, false);
  }
}
