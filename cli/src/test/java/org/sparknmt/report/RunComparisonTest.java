package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.DataCursor;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.cli.CommandLineRun;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.TinyRun;

/** What {@code compare-runs} finds the same and what it names as different, on runs written here. */
class RunComparisonTest {
  private static final String TRAIN_LINE = "{\"step\":%d,\"epoch\":1,\"loss\":%s,\"lr\":0.001,\"tokens\":500,"
      + "\"tokens_per_s\":%d.5,\"fit_share\":0.9,\"data_share\":0.01,\"driver_bytes_in\":%d,\"train_s\":%d.25}";
  private final Path dir = BuildDirs.fresh("run-comparison");

  @Test
  void runsThatDifferOnlyInTimingAreTheSame() throws IOException {
    String expected = run("expected", 7, 0.001, List.of(line(2, "5.5", 1), line(4, "5.25", 1)), 10.0);
    String actual = run("actual", 7, 0.001, List.of(line(2, "5.5", 3), line(4, "5.25", 7)), 99.0);

    RunComparison comparison = RunComparison.of(expected, actual, new Configuration());
    assertEquals(List.of(), comparison.differences());
    assertTrue(comparison.compared().stream().anyMatch(l -> l.startsWith("parameters: ") && l.contains("bit for bit")),
        comparison.compared().toString());
    CommandLineRun cli = new CommandLineRun();
    assertEquals(0, cli.execute("compare-runs", expected, actual), cli.err());
  }

  @Test
  void parametersLearningRateAndMetricsLinesThatDifferAreNamed() throws IOException {
    String expected = run("reference", 7, 0.001, List.of(line(2, "5.5", 1), line(4, "5.25", 1), line(6, "5.0", 1)), 1);
    String doubled = run("doubled", 7, 0.001, List.of(line(2, "5.5", 1), line(4, "5.25", 1), line(4, "5.25", 1),
        line(6, "5.0", 1)), 1);
    String missing = run("missing", 7, 0.001, List.of(line(2, "5.5", 1), line(6, "5.0", 1)), 1);
    String otherModel = run("other-model", 8, 0.002, List.of(line(2, "5.5", 1), line(4, "5.25", 1), line(6, "5.0", 1)), 1);
    String otherLoss = run("other-loss", 7, 0.001, List.of(line(2, "5.5", 1), line(4, "5.2500001", 1), line(6, "5.0", 1)), 1);

    assertEquals(List.of(log(doubled) + ": step 4 appears twice (line 3)"), differences(expected, doubled));
    assertEquals(List.of(log(missing) + " line 2: " + strip(line(6, "5.0", 1)) + ", expected "
        + strip(line(4, "5.25", 1))), differences(expected, missing));
    List<String> model = differences(expected, otherModel);
    assertTrue(model.get(0).contains("state.json: learning_rate is " + Double.doubleToRawLongBits(0.002)), model.toString());
    assertTrue(model.get(0).contains("seed is 8, expected 7"), model.toString());
    assertTrue(model.get(1).contains("parameters differ, first at index "), model.toString());
    assertTrue(differences(expected, otherLoss).get(0).contains("line 2: "), differences(expected, otherLoss).toString());
    CommandLineRun cli = new CommandLineRun();
    assertEquals(1, cli.execute("compare-runs", expected, doubled));
  }

  private List<String> differences(String expected, String actual) throws IOException {
    return RunComparison.of(expected, actual, new Configuration()).differences();
  }

  /** The train log's name as the comparison gives it (Hadoop writes file:/..., not file:///...). */
  private static String log(String run) {
    return new org.apache.hadoop.fs.Path(run, "metrics/train.jsonl").toString();
  }

  private static String line(long step, String loss, int timing) {
    return String.format(TRAIN_LINE, step, loss, timing, 1000 * timing, timing);
  }

  /** The line as the comparison shows it: without the timing fields. */
  private static String strip(String line) throws IOException {
    var node = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
    node.remove(RunComparison.TIMING);
    return node.toString();
  }

  /** A run with one checkpoint of step 6 (a model initialized from {@code seed}) and {@code train.jsonl}. */
  private String run(String name, long seed, double learningRate, List<String> trainLines, double trainSeconds)
      throws IOException {
    Path run = Files.createDirectories(dir.resolve(name));
    ComputationGraph graph = TransformerFactory.create(TinyRun.MODEL, 40, seed);
    TrainingState state = new TrainingState(6, 0, 3, 5, learningRate, seed, "abc", "", Map.of("valid_loss", 4.5),
        4.5, 0, trainSeconds, new DataCursor(2, 1, 10));
    new CheckpointStore(run.toUri().toString(), new Configuration())
        .save(state, out -> ModelArtifact.write(graph, "abc", out), null);
    Files.createDirectories(run.resolve("metrics"));
    Files.writeString(run.resolve("metrics/train.jsonl"), String.join("\n", trainLines) + "\n", StandardCharsets.UTF_8);
    return run.toUri().toString().replaceAll("/$", "");
  }
}
