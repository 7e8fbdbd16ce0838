package org.sparknmt.job.evaluate;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.job.cli.ExitCodes;
import org.sparknmt.job.cli.SparkOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt evaluate --hyp H [--hyp H2 ...] --ref R [--json]}: sacreBLEU-compatible corpus BLEU
 * and chrF of translations, computed on the cluster. Scores go to standard output, logs to standard error.
 */
@Command(name = "evaluate", mixinStandardHelpOptions = true,
    description = "Score a translation against its reference: corpus BLEU and chrF as sacreBLEU 2.6.0 computes them by default "
        + "(13a tokens, exp smoothing, case-sensitive; chrF2 with character 6-grams), statistics computed on the executors.")
public final class EvaluateCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(EvaluateCommand.class);

  @Mixin SparkOptions spark;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--hyp", required = true, paramLabel = "URI",
      description = "The system's translations, one detokenized sentence a line: a file (plain or .gz), a directory of part files, or a glob, "
          + "on any Hadoop FS. Repeatable: several hypotheses (e.g. of several checkpoints) are scored against --ref in one job.")
  List<String> hyps;

  @Option(names = "--ref", required = true, paramLabel = "URI",
      description = "The reference translations, aligned line by line with --hyp; same forms as --hyp.")
  String ref;

  @Option(names = "--json", description = "Print one JSON object (bleu, chrf, signature, counts, ...) instead of sacreBLEU's lines.")
  boolean json;

  @Override
  public Integer call() {
    try (JavaSparkContext sc = new JavaSparkContext(spark.sparkConf("sparknmt evaluate"))) {
      LOG.info("evaluate on {}: --hyp {} --ref {}{}", sc.master(), hyps, ref, json ? " --json" : "");
      return run(sc, spec.commandLine().getOut());
    }
  }

  /**
   * Evaluates on a running Spark context and prints the result to {@code out}: for one hypothesis,
   * sacreBLEU's lines and the signatures (or one JSON object); for several, each hypothesis's URI
   * and its lines, then the signatures (or one JSON object a line).
   */
  public int run(JavaSparkContext sc, PrintWriter out) {
    List<Evaluation> evaluations = EvaluateJob.run(sc, hyps, ref);
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
}
