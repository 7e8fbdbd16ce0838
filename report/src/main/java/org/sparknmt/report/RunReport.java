package org.sparknmt.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.common.shard.ShardReader;

/**
 * {@code RUN/report/index.html} with its PNG plots beside it: training and validation curves,
 * validation BLEU by checkpoint, the evaluation results if any, the data manifest, and the
 * attention maps of a few validation sentences. Every part that the run does not have yet (no
 * training, no evaluation) is said to be missing rather than failing the report.
 */
public final class RunReport {
  /** Validation sentences drawn with at most this many source subwords: longer maps are unreadable. */
  static final int MAX_DRAWN_LENGTH = 16;

  private final String run;
  private final Configuration hadoop;
  private final RunLayout layout;
  private final List<Path> images = new ArrayList<>();

  /** What was written: the page and every image. */
  public record Result(Path index, List<Path> images) {}

  public RunReport(String run, Configuration hadoop) {
    this.run = run;
    this.hadoop = hadoop;
    this.layout = RunLayout.of(run);
  }

  /** Writes the report, drawing the attention of {@code sentences} validation sentences under checkpoint {@code checkpoint}. */
  public Result write(String checkpoint, int sentences) throws IOException {
    Html html = new Html();
    html.paragraph("Run " + run + ", report written " + Instant.now() + ".");
    CheckpointStore store = new CheckpointStore(run, hadoop);
    List<CheckpointStore.Checkpoint> checkpoints = store.list();
    training(html, RunMetrics.read(run, hadoop), checkpoints);
    evaluation(html);
    PreparedData data = data(html);
    attention(html, data, checkpoints.isEmpty() ? null : checkpoint, sentences);
    if (!checkpoints.isEmpty()) {
      html.details("Configuration of " + checkpoints.get(checkpoints.size() - 1).path().getName(),
          checkpoints.get(checkpoints.size() - 1).state().config());
    }
    Path index = layout.reportPage();
    try (OutputStream out = index.getFileSystem(hadoop).create(index, true)) {
      out.write(html.page("sparknmt run report").getBytes(StandardCharsets.UTF_8));
    }
    return new Result(index, List.copyOf(images));
  }

  private void training(Html html, RunMetrics metrics, List<CheckpointStore.Checkpoint> checkpoints) throws IOException {
    html.heading(2, "Training");
    if (metrics.train().isEmpty() && metrics.valid().isEmpty()) {
      html.paragraph("No metrics under " + layout.metrics() + ": the run has not been trained yet.");
    }
    plot(html, "loss.png", byStep(Charts.lines("Loss by step", "step", "loss (per target token)", List.of(
        RunMetrics.series("training", metrics.train(), RunMetric.LOSS),
        RunMetrics.series("validation", metrics.valid(), RunMetric.LOSS)))));
    plot(html, "learning-rate.png", byStep(Charts.lines("Learning rate by step", "step", "learning rate",
        List.of(RunMetrics.series("learning rate", metrics.train(), RunMetric.LR)))));
    plot(html, "tokens-per-second.png", byStep(Charts.lines("Training speed", "step", "target tokens / s",
        List.of(RunMetrics.series("tokens/s", metrics.train(), RunMetric.TOKENS_PER_S)))));

    html.heading(2, "Validation");
    plot(html, "bleu.png", byStep(Charts.lines("Validation BLEU (greedy, first valid sentences)", "step", "BLEU",
        List.of(RunMetrics.series("each validation", metrics.valid(), RunMetric.BLEU), checkpointBleu(checkpoints)))));
    plot(html, "accuracy.png", byStep(Charts.lines("Validation token accuracy", "step", "accuracy",
        List.of(RunMetrics.series("accuracy", metrics.valid(), RunMetric.ACCURACY)))));
    List<List<String>> rows = new ArrayList<>();
    for (CheckpointStore.Checkpoint c : checkpoints) {
      TrainingState s = c.state();
      rows.add(List.of(c.path().getName(), Long.toString(c.step()), Integer.toString(s.epoch()),
          number(s.metric(RunMetric.TRAIN_LOSS)), number(s.metric(RunMetric.VALID_LOSS)),
          number(s.metric(RunMetric.VALID_ACCURACY)), number(s.metric(RunMetric.VALID_BLEU))));
    }
    if (rows.isEmpty()) {
      html.paragraph("No intact checkpoint under " + layout.checkpoints() + ".");
    } else {
      html.table(List.of("checkpoint", "step", "epoch", "train loss", "valid loss", "valid accuracy", "valid BLEU"), rows);
    }
  }

  private static Charts.Series checkpointBleu(List<CheckpointStore.Checkpoint> checkpoints) {
    List<CheckpointStore.Checkpoint> with = checkpoints.stream()
        .filter(c -> c.state().metric(RunMetric.VALID_BLEU) != null).toList();
    double[] x = new double[with.size()];
    double[] y = new double[with.size()];
    for (int i = 0; i < with.size(); i++) {
      x[i] = with.get(i).step();
      y[i] = with.get(i).state().metric(RunMetric.VALID_BLEU);
    }
    return new Charts.Series("checkpoints kept", x, y, true);
  }

  /** {@code RUN/eval/*.json}: one row per result, the scalar fields as columns. */
  private void evaluation(Html html) throws IOException {
    html.heading(2, "Evaluation");
    Path evalFolder = layout.eval();
    FileSystem fs = evalFolder.getFileSystem(hadoop);
    List<FileStatus> files = fs.exists(evalFolder)
        ? List.of(fs.listStatus(evalFolder, RunLayout::isEvalResult)) : List.of();
    if (files.isEmpty()) {
      html.paragraph("No evaluation results (" + evalFolder + "/*.json) yet.");
      return;
    }
    List<JsonNode> results = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (FileStatus file : files.stream().sorted(Comparator.comparing(f -> f.getPath().getName())).toList()) {
      for (JsonNode result : JsonFiles.objects(file.getPath(), hadoop)) {
        results.add(result);
        names.add(file.getPath().getName());
      }
    }
    Set<String> columns = new LinkedHashSet<>();
    results.forEach(r -> r.fields().forEachRemaining(e -> {
      if (e.getValue().isValueNode()) {
        columns.add(e.getKey());
      }
    }));
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      List<String> row = new ArrayList<>();
      row.add(names.get(i));
      for (String column : columns) {
        JsonNode value = results.get(i).path(column);
        row.add(value.isFloatingPointNumber() ? String.format("%.2f", value.asDouble())
            : value.isMissingNode() ? "" : value.asText());
      }
      rows.add(row);
    }
    List<String> header = new ArrayList<>();
    header.add("file");
    header.addAll(columns);
    html.table(header, rows);
  }

  private PreparedData data(Html html) throws IOException {
    html.heading(2, "Data");
    PreparedData data;
    try {
      data = PreparedData.open(run, hadoop);
    } catch (IllegalArgumentException e) {
      html.paragraph(e.getMessage());
      return null;
    }
    html.table(List.of("", "count"), DataSection.counts(data.manifest()));
    html.table(List.of("check", "pairs"), DataSection.rejects(data.manifest()));
    plot(html, "lengths-train.png", DataSection.lengths(data.manifest(), Split.TRAIN));
    plot(html, "lengths-valid.png", DataSection.lengths(data.manifest(), Split.VALID));
    return data;
  }

  private void attention(Html html, PreparedData data, String checkpoint, int sentences) throws IOException {
    html.heading(2, "Attention");
    if (data == null || checkpoint == null || sentences == 0) {
      html.paragraph("No attention maps: they need the prepared data and a checkpoint.");
      return;
    }
    RunModel model = RunModel.open(run, checkpoint, hadoop);
    html.paragraph("Checkpoint " + model.checkpoint().path().getName() + ", greedy translations of the first "
        + "validation sentences of at most " + MAX_DRAWN_LENGTH + " subwords (or the shortest). Rows are queries, "
        + "columns keys; each row sums to 1. The heads of a layer share one colour scale, from 0 (dark purple) to "
        + "the layer's largest weight (yellow). Every head also has its own PNG beside each overview.");
    int n = 0;
    for (EncodedPair pair : drawnPairs(data, sentences, hadoop)) {
      n++;
      SentenceAttention attention = model.attention(pair.source(), null);
      html.heading(3, "Validation sentence " + n + " (line " + LineId.line(pair.lineId()) + ")");
      html.code("source", attention.source());
      html.code("reference", model.encoder().decode(pair.target()));
      html.code("output", attention.output());
      Path sentenceFolder = new Path(layout.reportAttention(), "valid-" + n);
      // relative to the page, so that the report folder can be copied anywhere and still shows its images
      String linkFolder = layout.reportAttention().getName() + "/" + sentenceFolder.getName() + "/";
      for (AttentionFigures.Overview overview : AttentionFigures.write(attention, sentenceFolder, hadoop)) {
        images.add(overview.file());
        html.image(linkFolder + overview.file().getName(),
            overview.kind().title() + ", layer " + overview.layer());
      }
    }
  }

  /**
   * The first validation pairs (by line) short enough to draw; when there are too few of them, the
   * shortest of the others.
   */
  static List<EncodedPair> drawnPairs(PreparedData data, int sentences, Configuration conf) throws IOException {
    List<EncodedPair> pairs = new ArrayList<>();
    for (String shard : data.shards(Split.VALID)) {
      Path path = new Path(shard);
      try (InputStream in = path.getFileSystem(conf).open(path)) {
        ShardReader.readAll(in, shard).forEach(b -> pairs.addAll(b.pairs()));
      }
    }
    Comparator<EncodedPair> shortEnoughFirst = Comparator
        .comparingInt((EncodedPair p) -> p.source().length <= MAX_DRAWN_LENGTH ? 0 : p.source().length)
        .thenComparingLong(EncodedPair::lineId);
    return pairs.stream().sorted(shortEnoughFirst).limit(sentences).toList();
  }

  /** A chart by step, its axis from step 0 so that XChart ticks round steps rather than ones counted from the first. */
  private static XYChart byStep(XYChart chart) {
    chart.getStyler().setXAxisMin(0.0);
    return chart;
  }

  private void plot(Html html, String name, Chart<?, ?> chart) throws IOException {
    Path file = new Path(layout.report(), name);
    Png.write(Png.render(chart), file, hadoop);
    images.add(file);
    html.image(name, chart.getTitle());
  }

  private static String number(Double value) {
    return value == null ? "" : String.format("%.3f", value);
  }
}
