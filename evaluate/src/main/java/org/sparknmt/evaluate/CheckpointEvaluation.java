package org.sparknmt.evaluate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.FileReplacement;
import org.sparknmt.base.files.WriteLeftovers;
import org.sparknmt.base.lines.HadoopLines;
import org.sparknmt.base.run.JobProgress;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.Evaluation;

/**
 * A cluster evaluation run: several checkpoints of a run translate the same source in one Spark
 * application and are scored against one reference. The translations and a JSON report go to
 * {@code RUN/eval/eval-<UTC time>/} and {@code RUN/eval/eval-<UTC time>.json}; the report appears only
 * complete (a temporary name, then a rename), and what killed evaluations left is removed first.
 */
public final class CheckpointEvaluation {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");

  /**
   * One checkpoint's scores.
   *
   * @param ratio hypothesis length / reference length in 13a tokens (BLEU's ratio)
   * @param sentencesPerSecond lines translated per wall second of the translation job
   * @param hyp the translation file
   */
  public record Row(String checkpoint, long step, double bleu, double chrf, double ratio, double sentencesPerSecond,
      double tokensPerSecond, long lines, String hyp) {}

  /** The rows, checkpoints in the order chosen, the JSON report and where it was written. */
  public record Report(List<Row> rows, String json, ObjectNode report) {
    /** The JSON report on one line. */
    public String jsonText() {
      return report.toString();
    }

    /** A fixed-width table: checkpoint, step, BLEU, chrF, length ratio, sentences/s. */
    public List<String> table() {
      int width = Math.max("checkpoint".length(), rows.stream().mapToInt(r -> r.checkpoint().length()).max().orElse(0));
      String format = "%-" + width + "s %10s %7s %7s %7s %11s";
      List<String> lines = new ArrayList<>();
      lines.add(String.format(format, "checkpoint", "step", "BLEU", "chrF2", "ratio", "sentences/s"));
      for (Row r : rows) {
        lines.add(String.format(format, r.checkpoint(), r.step(), String.format("%.2f", r.bleu()),
            String.format("%.2f", r.chrf()), String.format("%.3f", r.ratio()), String.format("%.1f", r.sentencesPerSecond())));
      }
      return lines;
    }
  }

  private CheckpointEvaluation() {}

  /**
   * Translates {@code srcUri} with each checkpoint {@code selection} names and scores it against {@code refUri}.
   *
   * @param selection {@code all}, {@code last:K}, or a comma-separated list of checkpoint names ({@code best,avg-last-5-step-N})
   * @throws IllegalArgumentException when no checkpoint matches or source and reference differ in line count
   */
  public static Report run(JavaSparkContext sc, String runUri, String selection, String srcUri, String refUri,
      CheckpointTranslator translator) throws IOException {
    CheckpointStore store = new CheckpointStore(runUri, sc.hadoopConfiguration());
    List<CheckpointStore.Checkpoint> checkpoints = select(store, selection);
    JavaRDD<String> source = HadoopLines.read(sc, srcUri, "--src").persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long sourceLines;
      long referenceLines;
      try (JobProgress progress = new JobProgress(sc, "evaluate (count lines)", "lines read",
          JobProgress.Count.INPUT_RECORDS, -1, JobProgress.DEFAULT_SECONDS)) {
        sourceLines = source.count();
        referenceLines = HadoopLines.read(sc, refUri, "--ref").count();
      }
      if (sourceLines != referenceLines) {
        throw new IllegalArgumentException("source and reference differ in length: --src " + srcUri + " has " + sourceLines
            + " lines, --ref " + refUri + " has " + referenceLines + " lines");
      }
      RunLayout layout = RunLayout.of(runUri);
      Path evalRoot = layout.eval();
      Path folder = layout.evalAttempt(ZonedDateTime.now(ZoneOffset.UTC).format(STAMP));
      FileSystem fs = evalRoot.getFileSystem(sc.hadoopConfiguration());
      WriteLeftovers.Write write = WriteLeftovers.Write.start();
      removeKilledAttempts(fs, evalRoot, write);
      List<Row> rows = new ArrayList<>();
      for (CheckpointStore.Checkpoint checkpoint : checkpoints) {
        CheckpointTranslator.Translated translated = translator.translate(store, checkpoint, source, sourceLines, folder);
        String hyp = translated.hyp().toString();
        Evaluation scored = EvaluateJob.run(sc, hyp, refUri);
        rows.add(new Row(translated.checkpoint(), translated.step(), scored.bleu().score(), scored.chrf().score(),
            scored.bleu().ratio(), translated.sentencesPerSecond(), translated.tokensPerSecond(), translated.lines(), hyp));
      }
      Path json = RunLayout.evalResult(folder);
      ObjectNode report = report(runUri, srcUri, refUri, translator, rows);
      Path partial = write.partial(json);
      try (OutputStream out = DurableFiles.create(fs, partial, false)) {
        out.write(JSON.writeValueAsBytes(report));
      }
      FileReplacement.replace(fs, partial, json);
      return new Report(rows, json.toString(), report);
    } finally {
      source.unpersist();
    }
  }

  /**
   * Removes what evaluations whose driver was killed left under {@code RUN/eval}, where their writer is
   * provably gone: the hidden files of their translations in each {@code eval-<time>/} that has no
   * report, the folder itself when nothing else is in it, and a report that was not yet renamed.
   * Translations a killed evaluation had finished stay.
   */
  static void removeKilledAttempts(FileSystem fs, Path evalRoot, WriteLeftovers.Write own) throws IOException {
    WriteLeftovers.remove(fs, evalRoot, own, null);
    FileStatus[] attempts;
    try {
      attempts = fs.listStatus(evalRoot, path -> RunLayout.isEvalAttempt(path.getName()));
    } catch (FileNotFoundException e) {
      return;
    }
    for (FileStatus attempt : attempts) {
      Path report = RunLayout.evalResult(attempt.getPath());
      if (attempt.isDirectory() && !fs.exists(report) && !WriteLeftovers.remove(fs, attempt.getPath(), own, null).isEmpty()
          && fs.listStatus(attempt.getPath()).length == 0) {
        fs.delete(attempt.getPath(), false);
      }
    }
  }

  /**
   * The checkpoints {@code selection} names, in its order, each once: a comma-separated list of
   * {@code all} and {@code last:K} (by step) and names {@link CheckpointStore#resolve} takes, so
   * that {@code all,avg-last-5-step-N} scores the averaged model beside every saved one.
   */
  static List<CheckpointStore.Checkpoint> select(CheckpointStore store, String selection) throws IOException {
    Map<String, CheckpointStore.Checkpoint> chosen = new LinkedHashMap<>();
    for (String item : selection.split(",")) {
      String spec = item.trim();
      for (CheckpointStore.Checkpoint checkpoint : spec.equals("all") || spec.startsWith("last:")
          ? saved(store, spec) : List.of(store.resolve(spec))) {
        chosen.putIfAbsent(checkpoint.path().getName(), checkpoint);
      }
    }
    return List.copyOf(chosen.values());
  }

  private static List<CheckpointStore.Checkpoint> saved(CheckpointStore store, String spec) throws IOException {
    List<CheckpointStore.Checkpoint> all = store.list();
    if (all.isEmpty()) {
      throw new UsageException("--checkpoints " + spec + ": no intact checkpoint under " + store.root());
    }
    if (spec.equals("all")) {
      return all;
    }
    int last;
    try {
      last = Integer.parseInt(spec.substring("last:".length()));
    } catch (NumberFormatException e) {
      throw new UsageException("--checkpoints " + spec + ": expected last:K with a number K");
    }
    if (last < 1) {
      throw new UsageException("--checkpoints " + spec + ": K must be at least 1");
    }
    return all.subList(Math.max(0, all.size() - last), all.size());
  }

  private static ObjectNode report(String runUri, String srcUri, String refUri, CheckpointTranslator translator,
      List<Row> rows) {
    ObjectNode root = JSON.createObjectNode();
    root.put("run", runUri);
    root.put("src", srcUri);
    root.put("ref", refUri);
    translator.describe(root.putObject("search"));
    ObjectNode signature = root.putObject("signature");
    signature.put("bleu", Bleu.SIGNATURE);
    signature.put("chrf", Chrf.SIGNATURE);
    ArrayNode checkpoints = root.putArray("checkpoints");
    for (Row r : rows) {
      ObjectNode row = checkpoints.addObject();
      row.put("checkpoint", r.checkpoint());
      row.put("step", r.step());
      row.put("bleu", r.bleu());
      row.put("chrf", r.chrf());
      row.put("ratio", r.ratio());
      row.put("sentences_per_second", r.sentencesPerSecond());
      row.put("target_tokens_per_second", r.tokensPerSecond());
      row.put("lines", r.lines());
      row.put("hyp", r.hyp());
    }
    return root;
  }
}
