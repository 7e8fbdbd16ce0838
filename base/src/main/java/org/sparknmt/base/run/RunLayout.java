package org.sparknmt.base.run;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * Every folder and file of a run directory (any Hadoop URI), named here and nowhere else, so that the
 * stages that write a run and those that read it back cannot disagree:
 *
 * <pre>
 * RUN/
 *   .lock                        the run lock (RunLock); .lock.stale-HOLDER while a dead holder's is replaced
 *   data/                        prepare's output, complete once it exists
 *     manifest.json
 *     vocab/bpe.json             and vocab/bpe.json.sha256
 *     train/  valid/             the shards of each split
 *     rejects/
 *   data.tmp-ID/  data.old-ID/   prepare's staging folder and the data it replaces
 *   checkpoints/
 *     step-NNNNNNNN/             one per saved step
 *     avg-last-K-step-NNNNNNNN/  the mean of the last K (sparknmt average)
 *   metrics/
 *     train.jsonl  valid.jsonl   the training logs (MetricsLog)
 *   eval/
 *     eval-TIME/CHECKPOINT.txt   the translations of one checkpoint evaluation
 *     eval-TIME.json             its scores
 *   report/
 *     index.html                 the run report, its PNG plots beside it
 *     attention/                 attention maps
 *   shortlist/shortlist.txt      the vocabulary shortlist
 * </pre>
 *
 * <p>Prepare writes everything into {@code RUN/data.tmp-<id>/}, the manifest last, then renames that
 * folder to {@code RUN/data}: a {@code RUN/data} with a {@code manifest.json} is complete, anything else
 * is not, which is why {@link #manifest} and the other methods that take a data folder name the files
 * inside either. What a checkpoint folder holds, the shard files and the report's plots are formats of
 * their writers (the checkpoint store, the sharder, the report), as are the hidden temporary names of
 * interrupted writes.
 */
public record RunLayout(Path run) {
  public static final String MANIFEST = "manifest.json";
  /** The vocabulary, relative to the data folder (the manifest names it too). */
  public static final String VOCAB_FILE = "vocab/bpe.json";
  public static final String TMP_PREFIX = "data.tmp-";
  public static final String OLD_PREFIX = "data.old-";
  /** {@link #lock}'s name. */
  public static final String LOCK = ".lock";
  /** The metrics logs that training writes: {@link #metricsLog} of these names. */
  public static final String TRAIN_LOG = "train";
  public static final String VALID_LOG = "valid";
  /** What a user types before a step ({@code step-20}); a folder name pads the step to eight digits. */
  public static final String CHECKPOINT_PREFIX = "step-";
  private static final Pattern CHECKPOINT = Pattern.compile(CHECKPOINT_PREFIX + "(\\d{8,})");
  private static final String EVAL_PREFIX = "eval-";
  private static final String EVAL_RESULT = ".json";

  public static RunLayout of(String runUri) {
    return new RunLayout(new Path(runUri));
  }

  /** {@code RUN/data}: complete once it exists, since it appears by one rename. */
  public Path data() {
    return new Path(run, "data");
  }

  /** {@code RUN/data.tmp-<id>}: where one prepare writes before the rename to {@link #data}. */
  public Path dataStaging(String id) {
    return new Path(run, TMP_PREFIX + id);
  }

  /** {@code RUN/data.old-<id>}: where the data a prepare replaces is moved aside. */
  public Path dataReplaced(String id) {
    return new Path(run, OLD_PREFIX + id);
  }

  public static Path manifest(Path data) {
    return new Path(data, MANIFEST);
  }

  /** The vocabulary, {@code vocab/bpe.json}, and beside it its SHA-256 in {@code sha256sum} format. */
  public static Path vocabFile(Path data) {
    return new Path(data, VOCAB_FILE);
  }

  public static Path vocabHashFile(Path data) {
    return new Path(data, VOCAB_FILE + ".sha256");
  }

  public static Path rejects(Path data) {
    return new Path(data, "rejects");
  }

  /** The shards of one split, in the split's folder ({@code train} or {@code valid}). */
  public static Path shards(Path data, String splitFolder) {
    return new Path(data, splitFolder);
  }

  public Path checkpoints() {
    return new Path(run, "checkpoints");
  }

  /** {@code RUN/checkpoints/step-NNNNNNNN}. */
  public Path checkpoint(long step) {
    return new Path(checkpoints(), checkpointName(step));
  }

  /** {@code step-NNNNNNNN}: zero-padded, so that the folders sort by step. */
  public static String checkpointName(long step) {
    return String.format(CHECKPOINT_PREFIX + "%08d", step);
  }

  /** The step of a {@link #checkpointName}; empty for any other name (an averaged checkpoint, a temporary). */
  public static OptionalLong checkpointStep(String name) {
    Matcher matcher = CHECKPOINT.matcher(name);
    return matcher.matches() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
  }

  /** {@code avg-last-K-step-NNNNNNNN}: the mean of the last {@code last} checkpoints up to {@code newestStep}. */
  public static String averagedCheckpointName(int last, long newestStep) {
    return "avg-last-" + last + "-" + checkpointName(newestStep);
  }

  public Path metrics() {
    return new Path(run, "metrics");
  }

  /** {@code RUN/metrics/NAME.jsonl}. */
  public Path metricsLog(String name) {
    return new Path(metrics(), name + ".jsonl");
  }

  public Path eval() {
    return new Path(run, "eval");
  }

  /** {@code RUN/eval/eval-<time>}: the translations of the checkpoint evaluation started at {@code time}. */
  public Path evalAttempt(String time) {
    return new Path(eval(), EVAL_PREFIX + time);
  }

  /** Whether a name under {@link #eval} is an evaluation's, folder or result. */
  public static boolean isEvalAttempt(String name) {
    return name.startsWith(EVAL_PREFIX);
  }

  /** {@code RUN/eval/eval-<time>.json}, beside the attempt's folder: its scores. */
  public static Path evalResult(Path attempt) {
    return attempt.suffix(EVAL_RESULT);
  }

  public static boolean isEvalResult(Path file) {
    return file.getName().endsWith(EVAL_RESULT);
  }

  /** {@code RUN/eval/eval-<time>/<checkpoint>.txt}: the translation of one checkpoint. */
  public static Path evalTranslation(Path attempt, String checkpoint) {
    return new Path(attempt, checkpoint + ".txt");
  }

  public Path lock() {
    return new Path(run, LOCK);
  }

  /** {@code RUN/.lock.stale-<holder id>}: a dead holder's lock, kept aside while the new holder runs. */
  public Path staleLock(String holderId) {
    return new Path(run, LOCK + ".stale-" + holderId);
  }

  public Path report() {
    return new Path(run, "report");
  }

  /** {@code RUN/report/index.html}, the report's page. */
  public Path reportPage() {
    return new Path(report(), "index.html");
  }

  /** {@code RUN/report/attention}: the report's attention maps, and {@code sparknmt attention}'s by default. */
  public Path reportAttention() {
    return new Path(report(), "attention");
  }

  /** {@code RUN/shortlist/shortlist.txt}: what {@code sparknmt shortlist} writes. */
  public Path shortlist() {
    return new Path(new Path(run, "shortlist"), "shortlist.txt");
  }
}
