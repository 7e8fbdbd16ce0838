package org.sparknmt.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;
import org.sparknmt.common.checkpoint.TrainedModel;

/**
 * Whether a run ended exactly as another did: the claim of {@code scripts/chaos}, that a run killed
 * and rerun any number of times ends bit-identical to one that never was. Compared: the newest intact
 * checkpoint's parameters, Adam's state and outer momentum bit for bit; its training state (step,
 * epoch, data cursor, learning rate, metrics, best loss, seed, configuration: all but
 * {@code train_s}, which counts wall time); and {@code RUN/metrics/train.jsonl} and {@code valid.jsonl}
 * line by line without the fields that measure time, so that a line missing, doubled or out of
 * order is named. {@link #differences} is empty when the runs are the same.
 */
public final class RunComparison {
  /** The fields of the metrics logs that measure time or bytes moved, not what was trained. */
  static final Set<String> TIMING = Set.of(RunMetric.TOKENS_PER_S.key(), RunMetric.FIT_SHARE.key(),
      RunMetric.DATA_SHARE.key(), RunMetric.DRIVER_BYTES_IN.key(), RunMetric.TRAIN_S.key(), RunMetric.VALID_S.key());
  private static final List<String> LOGS = List.of(RunLayout.TRAIN_LOG, RunLayout.VALID_LOG);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> differences = new ArrayList<>();
  private final List<String> compared = new ArrayList<>();

  private RunComparison() {}

  /** Compares run {@code actual} with run {@code expected} (the undisturbed one). */
  public static RunComparison of(String expected, String actual, Configuration hadoop) throws IOException {
    RunComparison comparison = new RunComparison();
    comparison.checkpoints(new CheckpointStore(expected, hadoop), new CheckpointStore(actual, hadoop));
    for (String log : LOGS) {
      comparison.metrics(log, RunLayout.of(expected).metricsLog(log), RunLayout.of(actual).metricsLog(log), hadoop);
    }
    return comparison;
  }

  /** What differs, each a sentence naming the file or field; empty when the runs are the same. */
  public List<String> differences() {
    return List.copyOf(differences);
  }

  /** What was found the same, one line each, for the report. */
  public List<String> compared() {
    return List.copyOf(compared);
  }

  private void checkpoints(CheckpointStore expected, CheckpointStore actual) throws IOException {
    Optional<CheckpointStore.Checkpoint> a = expected.latest();
    Optional<CheckpointStore.Checkpoint> b = actual.latest();
    if (a.isEmpty() || b.isEmpty()) {
      differences.add("no intact checkpoint in " + (a.isEmpty() ? expected.root() : actual.root()));
      return;
    }
    CheckpointStore.Checkpoint x = a.get();
    CheckpointStore.Checkpoint y = b.get();
    if (x.step() != y.step()) {
      differences.add("the newest intact checkpoint is " + y.path() + ", expected step " + x.step());
      return;
    }
    state(x, y);
    ComputationGraph first = TrainedModel.read(expected, x, x.state().vocabularySha256()).graph();
    ComputationGraph second = TrainedModel.read(actual, y, y.state().vocabularySha256()).graph();
    bits("parameters", first.params(), second.params(), y);
    bits("Adam state", first.getUpdater().getStateViewArray(), second.getUpdater().getStateViewArray(), y);
    byte[] outerX = outer(expected, x);
    byte[] outerY = outer(actual, y);
    if (!Arrays.equals(outerX, outerY)) {
      differences.add(y.path() + ": the outer optimizer's state (" + CheckpointStore.OUTER + ") differs");
    }
  }

  /** The two states equal in everything but the seconds trained, which count wall time. */
  private void state(CheckpointStore.Checkpoint x, CheckpointStore.Checkpoint y) {
    TrainingState s = x.state();
    TrainingState t = y.state();
    List<String> fields = new ArrayList<>();
    compare(fields, "step", s.step(), t.step());
    compare(fields, "epoch", s.epoch(), t.epoch());
    compare(fields, "round", s.round(), t.round());
    compare(fields, "rounds_in_epoch", s.roundsInEpoch(), t.roundsInEpoch());
    compare(fields, "learning_rate", Double.doubleToRawLongBits(s.learningRate()),
        Double.doubleToRawLongBits(t.learningRate()));
    compare(fields, "seed", s.seed(), t.seed());
    compare(fields, "vocabulary", s.vocabularySha256(), t.vocabularySha256());
    compare(fields, "config", s.config(), t.config());
    compare(fields, "metrics", s.metrics(), t.metrics());
    compare(fields, "best_valid_loss", Double.doubleToRawLongBits(s.bestValidLoss()),
        Double.doubleToRawLongBits(t.bestValidLoss()));
    compare(fields, "validations_since_best", s.validationsSinceBest(), t.validationsSinceBest());
    compare(fields, "cursor", s.cursor(), t.cursor());
    if (fields.isEmpty()) {
      compared.add(String.format("training state of step %d: the same (epoch %d, round %d of %d, learning rate %s)",
          t.step(), t.epoch(), t.round(), t.roundsInEpoch(), t.learningRate()));
    } else {
      differences.add(y.path() + "/" + CheckpointStore.STATE + ": " + String.join("; ", fields));
    }
  }

  private static void compare(List<String> fields, String name, Object expected, Object actual) {
    if (!java.util.Objects.equals(expected, actual)) {
      fields.add(name + " is " + actual + ", expected " + expected);
    }
  }

  private void bits(String what, INDArray expected, INDArray actual, CheckpointStore.Checkpoint checkpoint) {
    if (!expected.dataType().equals(actual.dataType()) || expected.length() != actual.length()) {
      differences.add(checkpoint.path() + ": " + what + " are " + actual.dataType() + "[" + actual.length()
          + "], expected " + expected.dataType() + "[" + expected.length() + "]");
      return;
    }
    int first = Arrays.mismatch(rawBits(expected), rawBits(actual));
    if (first >= 0) {
      differences.add(String.format("%s: %s differ, first at index %d: %s, expected %s", checkpoint.path(), what,
          first, actual.getDouble(first), expected.getDouble(first)));
    } else {
      compared.add(String.format("%s: %d values bit for bit the same", what, expected.length()));
    }
  }

  /** The array's values as their bit patterns, so that NaNs and -0.0 compare as stored. */
  private static int[] rawBits(INDArray array) {
    float[] values = array.data().asFloat();
    int[] bits = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Float.floatToRawIntBits(values[i]);
    }
    return bits;
  }

  private static byte[] outer(CheckpointStore store, CheckpointStore.Checkpoint checkpoint) throws IOException {
    Optional<InputStream> in = store.openOuter(checkpoint);
    if (in.isEmpty()) {
      return new byte[0];
    }
    try (InputStream stream = in.get()) {
      return stream.readAllBytes();
    }
  }

  /**
   * The log of {@code actual} line for line as {@code expected}'s, the timing fields aside; each line's
   * step greater than the one before (a rerun that doubled or lost lines shows here).
   */
  private void metrics(String log, Path expected, Path actual, Configuration hadoop) throws IOException {
    List<JsonNode> x = lines(expected, hadoop);
    List<JsonNode> y = lines(actual, hadoop);
    int before = differences.size();
    Set<Long> seen = new HashSet<>();
    long previous = Long.MIN_VALUE;
    for (int i = 0; i < y.size(); i++) {
      long step = y.get(i).path(RunMetric.STEP.key()).asLong();
      if (!seen.add(step)) {
        differences.add(actual + ": step " + step + " appears twice (line " + (i + 1) + ")");
      } else if (step < previous) {
        differences.add(actual + ": step " + step + " at line " + (i + 1) + " after step " + previous);
      }
      previous = Math.max(previous, step);
    }
    for (int i = 0; i < Math.max(x.size(), y.size()) && differences.size() == before; i++) {
      if (i >= y.size()) {
        differences.add(actual + ": " + (x.size() - y.size()) + " line(s) missing, from step "
            + x.get(i).path(RunMetric.STEP.key()).asLong() + " on (line " + (i + 1) + ")");
      } else if (i >= x.size()) {
        differences.add(actual + ": " + (y.size() - x.size()) + " line(s) more than expected, from line " + (i + 1)
            + ": " + y.get(i));
      } else if (!withoutTiming(x.get(i)).equals(withoutTiming(y.get(i)))) {
        differences.add(actual + " line " + (i + 1) + ": " + withoutTiming(y.get(i)) + ", expected "
            + withoutTiming(x.get(i)));
      }
    }
    if (differences.size() == before) {
      compared.add(String.format("metrics/%s.jsonl: %d lines the same, in order, none missing or doubled", log, y.size()));
    }
  }

  private static ObjectNode withoutTiming(JsonNode line) {
    ObjectNode copy = line.deepCopy();
    copy.remove(TIMING);
    return copy;
  }

  private static List<JsonNode> lines(Path file, Configuration hadoop) throws IOException {
    FileSystem fs = file.getFileSystem(hadoop);
    List<JsonNode> lines = new ArrayList<>();
    if (!fs.exists(file)) {
      return lines;
    }
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isBlank()) {
          lines.add(JSON.readTree(line));
        }
      }
    }
    return lines;
  }
}
