package org.sparknmt.job.train;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.job.checkpoint.TrainingState;

/** {@code RUN/metrics/train.jsonl} (one line per averaging round) and {@code valid.jsonl} (one per validation). */
final class MetricsSink implements AutoCloseable {
  private final MetricsLog train;
  private final MetricsLog valid;

  MetricsSink(String runUri, long resumedStep, JavaSparkContext sc) throws IOException {
    this.train = MetricsLog.open(runUri, "train", resumedStep, sc.hadoopConfiguration());
    this.valid = MetricsLog.open(runUri, "valid", resumedStep, sc.hadoopConfiguration());
  }

  void round(TrainingState state, double loss, double tokensPerSecond, double fitShare, double dataShare) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("epoch", state.epoch() + 1);
    values.put("loss", loss);
    values.put("lr", state.learningRate());
    values.put("tokens_per_s", tokensPerSecond);
    values.put("fit_share", fitShare);
    values.put("data_share", dataShare);
    values.put("train_s", state.trainSeconds());
    train.add(state.step(), values);
  }

  void valid(long step, TrainingState state, Validation.Result result) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("epoch", state.epoch() + (state.round() == 0 ? 0 : 1));
    values.put("loss", result.loss());
    values.put("accuracy", result.accuracy());
    values.put("tokens", result.tokens());
    if (!Double.isNaN(result.bleu())) {
      values.put("bleu", result.bleu());
    }
    values.put("train_s", state.trainSeconds());
    valid.add(step, values);
  }

  void flush() throws IOException {
    train.flush();
    valid.flush();
  }

  @Override
  public void close() {
    try {
      flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
