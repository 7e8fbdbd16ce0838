package org.sparknmt.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.clean.Normalizer;
import org.sparknmt.common.scores.BleuScore;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.evaluate.EvaluateJob;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.ShortlistFile;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Translation speed and quality: sentences/s, target tokens/s and BLEU of {@link TranslateJob} at beam
 * 1 and beam 4 on one corpus, of beam 4 over the run's vocabulary shortlist when it has one, of an ensemble of the run's last 2 checkpoints at beam 4 and of top-k 10
 * sampling (temperature 1, seed 0), after a warm-up pass over the whole corpus at beam 4 (model restore, JIT,
 * and the search threads' workspaces sized by its longest batch, as a job's first batch sizes them: a
 * partition is searched longest batch first), whose time is printed as a fresh JVM's first pass, and an
 * untimed pass at each beam before its timed runs (a job runs one beam throughout); each
 * beam is timed REPEATS times and the median run reported, with the load average before each run. The
 * shortlist is timed in turns with beam 4 over the whole vocabulary, and the median of the pairs' ratios
 * printed.
 * BLEU and the length ratio against the reference show that speed does not come from shorter outputs.
 */
@Command(name = "TranslateBenchmark", mixinStandardHelpOptions = true,
    description = "Print sentences/s, target tokens/s and BLEU of sparknmt translate at beam 1 and 4, of beam 4 with "
        + "the run's shortlist, of an ensemble "
        + "of the last 2 checkpoints at beam 4 and of top-k 10 sampling (median of REPEATS runs).")
public final class TranslateBenchmark implements Callable<Integer> {

  @Mixin
  TranslationBenchSetup setup;

  @Option(names = "--batch-size", defaultValue = "128", paramLabel = "N",
      description = "Sentences searched together (default ${DEFAULT-VALUE}, translate's).")
  int batchSize;

  @Option(names = "--partitions", defaultValue = "0", paramLabel = "N",
      description = "Line ranges of the input (default ${DEFAULT-VALUE}, translate's: the default parallelism).")
  int partitions;

  @Option(names = "--ref", required = true, paramLabel = "FILE", description = "Reference translations of the input.")
  String ref;

  /** The best text of a beam search: translate without n-best, sampling or prefix options. */
  private static final HypothesesConfig BEST = HypothesesConfig.best();

  /** The most subwords of one input line, normalized and encoded as translate encodes it. */
  private static int longestSource(JavaSparkContext sc, TranslationModel model, String input) {
    BpeModel vocabulary = model.vocabulary();
    return sc.textFile(input).mapPartitions(lines -> {
      BpeEncoder bpe = new BpeEncoder(vocabulary);
      int longest = 0;
      while (lines.hasNext()) {
        longest = Math.max(longest, bpe.encode(Normalizer.normalize(lines.next())).length);
      }
      return List.of(longest).iterator();
    }).reduce(Math::max);
  }

  private record Timed(TranslateJob.Result result, String load) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new TranslateBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Path work = setup.workFolder();
    String input = setup.input;
    try (JavaSparkContext sc = new JavaSparkContext(setup.sparkConf("sparknmt translate benchmark"))) {
      TranslationModel model = setup.loadModel(sc);
      // the length penalty of the recipe's translate section (chosen on valid)
      TranslateConfig defaults = TranslateConfig.of(DecodingOptions.beam(4).withLengthPenalty(new LengthPenalty.Gnmt(2.0))
          .withMaxLength(1.5, 10), batchSize).withPartitions(partitions);
      TranslateJob.Result warmUp = TranslateJob.run(sc, model, defaults, input, work.resolve("warm-up.txt").toUri().toString(), true);
      System.out.printf("translate benchmark: %s (step %d) on %s, %s, %s partitions, batches of %d sentences, "
          + "length penalty %.1f, median of %d runs%n", model.checkpoint(), model.step(), input, setup.master,
          partitions == 0 ? "translate's default" : partitions, batchSize, defaults.search().lengthPenalty().alpha(), setup.repeats);
      System.out.printf("  warm-up, this JVM's first pass (beam 4): %.1f s, %.1f target tokens/s%n", warmUp.seconds(),
          warmUp.tokensPerSecond());
      // what `sparknmt memory --source-length` needs to plan this input's searches, which it cannot read
      System.out.printf("longest source: %d subwords%n", longestSource(sc, model, input));
      for (int beam : new int[] {1, 4}) {
        time(sc, "beam " + beam, model, defaults.withSearch(defaults.search().withBeamWidth(beam)), BEST, work);
      }
      // beside beam 4 over the whole vocabulary: the same search over the run's shortlist (sparknmt shortlist)
      org.apache.hadoop.fs.Path shortlistFile = RunLayout.of(setup.run).shortlist();
      if (!shortlistFile.getFileSystem(sc.hadoopConfiguration()).exists(shortlistFile)) {
        System.out.println("shortlist beam 4: not run (no " + shortlistFile + ")");
      } else {
        TranslateConfig listed = defaults.withShortlist(ShortlistFile.OF_THE_RUN);
        // runs of the two alternate, so that a load that changes during the benchmark weighs on both alike
        Setting whole = new Setting("whole vocabulary beam 4", model, defaults, BEST);
        Setting shortlist = new Setting("shortlist beam 4", model.withShortlist(listed, setup.run,
            sc.hadoopConfiguration()), listed, BEST);
        List<List<Timed>> runs = time(sc, List.of(whole, shortlist), work);
        List<Double> speedUps = new ArrayList<>();
        for (int i = 0; i < setup.repeats; i++) {
          speedUps.add(runs.get(1).get(i).result().tokensPerSecond() / runs.get(0).get(i).result().tokensPerSecond());
        }
        System.out.printf("shortlist speed-up: %.2fx target tokens/s, the median of %d alternating pairs %s%n",
            speedUps.stream().sorted().toList().get(speedUps.size() / 2), speedUps.size(),
            speedUps.stream().map(r -> String.format("%.2f", r)).toList());
      }
      List<CheckpointStore.Checkpoint> all = new CheckpointStore(setup.run, sc.hadoopConfiguration()).list();
      if (all.size() < 2) {
        System.out.println("ensemble beam 4: not run (the run has " + all.size() + " checkpoint)");
      } else {
        List<String> lastTwo = all.subList(all.size() - 2, all.size()).stream().map(c -> c.path().toString()).toList();
        time(sc, "ensemble beam 4", TranslationModel.load(setup.run, lastTwo, sc.hadoopConfiguration()), defaults,
            BEST, work);
      }
      time(sc, "sample topk=10", model, defaults, BEST.withSample("topk=10"),
          work);
    }
    return 0;
  }

  /** One search setting of the benchmark: a model, its search and what it outputs. */
  private record Setting(String label, TranslationModel model, TranslateConfig config, HypothesesConfig hypotheses) {}

  /** {@link #time(JavaSparkContext, List, Path)} of one setting. */
  private void time(JavaSparkContext sc, String label, TranslationModel model, TranslateConfig config,
      HypothesesConfig hypotheses, Path work) throws IOException {
    time(sc, List.of(new Setting(label, model, config, hypotheses)), work);
  }

  /**
   * Prints, for each setting, the median of REPEATS timed runs, label first, with its BLEU, after an
   * untimed pass: the JIT compiled the search for the setting it last ran (greedy runs after the beam-4
   * warm-up got faster run by run), so each setting gets an untimed pass of its own. With several
   * settings the timed runs take turns (one run of each, REPEATS times), and the runs are returned in
   * that order, a list per setting.
   */
  private List<List<Timed>> time(JavaSparkContext sc, List<Setting> settings, Path work) throws IOException {
    List<String> outputs = new ArrayList<>();
    List<List<Timed>> runs = new ArrayList<>();
    for (Setting setting : settings) {
      String output = work.resolve(setting.label().replace(' ', '-').replace('=', '-') + ".txt").toUri().toString();
      outputs.add(output);
      runs.add(new ArrayList<>());
      TranslateJob.Result untimed = TranslateJob.run(sc, setting.model(), setting.config(), setting.hypotheses(),
          setup.input, output, true);
      System.out.printf("  %s untimed pass: %.1f s%n", setting.label(), untimed.seconds());
    }
    for (int i = 0; i < setup.repeats; i++) {
      for (int s = 0; s < settings.size(); s++) {
        Setting setting = settings.get(s);
        String load = loadAverage();
        runs.get(s).add(new Timed(TranslateJob.run(sc, setting.model(), setting.config(), setting.hypotheses(),
            setup.input, outputs.get(s), true), load));
      }
    }
    for (int s = 0; s < settings.size(); s++) {
      Setting setting = settings.get(s);
      BleuScore bleu = EvaluateJob.run(sc, outputs.get(s), ref).bleu();
      for (Timed run : runs.get(s)) {
        System.out.printf("  %s run: %.1f s, load average %s%n", setting.label(), run.result().seconds(), run.load());
      }
      Timed median = runs.get(s).stream().sorted(Comparator.comparingDouble(t -> t.result().seconds())).toList()
          .get(runs.get(s).size() / 2);
      TranslateJob.Result r = median.result();
      System.out.printf("%s: %d sentences, %d target tokens in %.1f s: %.2f sentences/s, %.1f target tokens/s, "
          + "BLEU %.2f, length ratio %.3f, load average %s, %s%n", setting.label(), r.lines(), r.targetTokens(),
          r.seconds(), r.sentencesPerSecond(), r.tokensPerSecond(), bleu.score(), bleu.ratio(), median.load(),
          setting.model().checkpoint());
    }
    return runs;
  }

  /** The 1-, 5- and 15-minute load averages (Linux), or "n/a". */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }
}
