package org.sparknmt.train;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.run.MetricsLog;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;

/** {@code RUN/metrics/train.jsonl} (one line per averaging round) and {@code valid.jsonl} (one per validation). */
final class MetricsSink implements AutoCloseable {
  private final MetricsLog train;
  private final MetricsLog valid;

  MetricsSink(String runUri, long resumedStep, JavaSparkContext sc) throws IOException {
    this.train = MetricsLog.open(runUri, RunLayout.TRAIN_LOG, resumedStep, sc.hadoopConfiguration());
    this.valid = MetricsLog.open(runUri, RunLayout.VALID_LOG, resumedStep, sc.hadoopConfiguration());
  }

  /** @param driverBytesIn the bytes the driver received as the round's task results; -1 (left out) when unknown */
  void round(TrainingState state, double loss, long tokens, double tokensPerSecond, double fitShare, double dataShare,
      long driverBytesIn) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(RunMetric.EPOCH.key(), state.epoch() + 1);
    values.put(RunMetric.LOSS.key(), loss);
    values.put(RunMetric.LR.key(), state.learningRate());
    values.put(RunMetric.TOKENS.key(), tokens);
    values.put(RunMetric.TOKENS_PER_S.key(), tokensPerSecond);
    values.put(RunMetric.FIT_SHARE.key(), fitShare);
    values.put(RunMetric.DATA_SHARE.key(), dataShare);
    if (driverBytesIn >= 0) {
      values.put(RunMetric.DRIVER_BYTES_IN.key(), driverBytesIn);
    }
    values.put(RunMetric.TRAIN_S.key(), state.trainSeconds());
    train.add(state.step(), values);
  }

  void valid(long step, TrainingState state, Validation.Result result, double seconds) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(RunMetric.EPOCH.key(), state.epoch() + (state.round() == 0 ? 0 : 1));
    values.put(RunMetric.LOSS.key(), result.loss());
    values.put(RunMetric.ACCURACY.key(), result.accuracy());
    values.put(RunMetric.TOKENS.key(), result.tokens());
    if (!Double.isNaN(result.bleu())) {
      values.put(RunMetric.BLEU.key(), result.bleu());
    }
    values.put(RunMetric.TRAIN_S.key(), state.trainSeconds());
    values.put(RunMetric.VALID_S.key(), seconds);
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
