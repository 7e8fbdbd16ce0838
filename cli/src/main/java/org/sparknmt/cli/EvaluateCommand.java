package org.sparknmt.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.ChrfScore;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.evaluate.CheckpointEvaluation;
import org.sparknmt.evaluate.EvaluateJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sparknmt evaluate --hyp H [--hyp H2 ...] --ref R [--json]}: sacreBLEU-compatible corpus BLEU
 * and chrF of translations, computed on the cluster. {@code sparknmt evaluate --run RUN --checkpoints all|last:K
 * --src S --ref R}: a cluster evaluation run ({@link CheckpointEvaluation}) that translates and scores
 * several checkpoints in one Spark application. Scores go to standard output, logs to standard error.
 */
@Command(name = "evaluate", mixinStandardHelpOptions = true,
    description = {"Score a translation against its reference: corpus BLEU and chrF as sacreBLEU 2.6.0 computes them by default "
        + "(13a tokens, exp smoothing, case-sensitive; chrF2 with character 6-grams), statistics computed on the executors.",
        "With --run and --src instead of --hyp: translate --src with several checkpoints of the run and score each; "
        + "a table on standard output, translations and JSON under RUN/eval/.",
        "With --table T --hyp-column H --ref-column R: score two string columns of one table (parquet, orc, json, csv, tsv)."})
public final class EvaluateCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(EvaluateCommand.class);

  @Mixin SparkOptions spark;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin SearchOptions search;

  @Option(names = "--hyp", paramLabel = "URI",
      description = "The system's translations, one detokenized sentence a line: a file (plain or .gz), a directory of part files, or a glob, "
          + "on any Hadoop FS. Repeatable: several hypotheses (e.g. of several checkpoints) are scored against --ref in one job.")
  List<String> hyps;

  @Option(names = "--ref", paramLabel = "URI",
      description = "The reference translations, aligned line by line with --hyp; same forms as --hyp.")
  String ref;

  @Mixin TableEvaluationOptions table;

  @Option(names = "--run", paramLabel = "URI", description = "Evaluate checkpoints of this run (with --src) instead of a --hyp file.")
  String run;

  @Option(names = "--checkpoints", defaultValue = "all", paramLabel = "WHICH",
      description = "With --run: a comma-separated list of all, last:K and names (best, step-N, avg-last-K-step-N, ...), each scored once. Default: ${DEFAULT-VALUE}.")
  String checkpoints;

  @Option(names = "--src", paramLabel = "URI", description = "With --run: the source text to translate, aligned line by line with --ref.")
  String src;

  @Option(names = "--json", description = "Print one JSON object (bleu, chrf, signature, counts, ...) instead of sacreBLEU's lines.")
  boolean json;

  @Override
  public Integer call() {
    if (!tableForm()) {
      checkpointForm();
    }
    try (JavaSparkContext sc = new JavaSparkContext(spark.sparkConf("sparknmt evaluate"))) {
      String what = table.given() ? table.toString()
          : (run != null ? "--run " + run + " --src " + src : "--hyp " + hyps) + " --ref " + ref;
      LOG.info("evaluate on {}: {}{}", sc.master(), what, json ? " --json" : "");
      return run(sc, spec.commandLine().getOut());
    }
  }

  /** Whether the options ask to score two columns of a table (--table); checks that no file option comes with it. */
  private boolean tableForm() {
    if (table.given() && (ref != null || hyps != null || run != null || src != null)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--table T --hyp-column H --ref-column R scores two columns of one table: no --hyp, --ref, --run or --src");
    }
    return table.given();
  }

  /** Whether the options ask for a checkpoint evaluation (--run, --src) rather than scoring --hyp; checks they fit together. */
  private boolean checkpointForm() {
    if (run == null && src == null) {
      if (hyps == null || hyps.isEmpty() || ref == null) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "give --hyp H --ref R, or --run RUN --src S --ref R, or --table T --hyp-column H --ref-column R");
      }
      return false;
    }
    if (run == null || src == null || ref == null || hyps != null && !hyps.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "a checkpoint evaluation takes --run RUN --src S --ref R (and no --hyp)");
    }
    return true;
  }

  /**
   * Evaluates on a running Spark context and prints the result to {@code out}: for one hypothesis,
   * sacreBLEU's lines and the signatures (or one JSON object); for several, each hypothesis's URI
   * and its lines, then the signatures (or one JSON object a line); for a checkpoint evaluation, its table.
   */
  public int run(JavaSparkContext sc, PrintWriter out) {
    List<Evaluation> evaluations;
    if (tableForm()) {
      evaluations = List.of(table.evaluate(SparkSession.builder().config(sc.getConf()).getOrCreate()));
    } else if (checkpointForm()) {
      return runCheckpoints(sc, out);
    } else {
      evaluations = EvaluateJob.run(sc, hyps, ref);
    }
    if (json) {
      evaluations.forEach(e -> out.println(e.jsonLine()));
    } else if (evaluations.size() == 1) {
      evaluations.get(0).textLines().forEach(out::println);
    } else {
      for (Evaluation e : evaluations) {
        out.println(e.hyp());
        e.scoreLines().forEach(line -> out.println("  " + line));
      }
      Evaluation.SIGNATURE_LINES.forEach(out::println);
    }
    out.flush();
    return ExitCodes.OK;
  }

  private int runCheckpoints(JavaSparkContext sc, PrintWriter out) {
    CheckpointEvaluation.Report report;
    try {
      report = CheckpointEvaluation.run(sc, run, checkpoints, src, ref, CheckpointTranslation.of(sc, run, search.config()));
    } catch (IOException e) {
      throw new UncheckedIOException(run + ": " + e.getMessage(), e);
    }
    if (json) {
      out.println(report.jsonText());
    } else {
      report.table().forEach(out::println);
      out.println("BLEU signature: " + Bleu.SIGNATURE);
      out.println(ChrfScore.NAME + " signature: " + Chrf.SIGNATURE);
      out.println("written: " + report.json());
    }
    out.flush();
    return ExitCodes.OK;
  }
}
