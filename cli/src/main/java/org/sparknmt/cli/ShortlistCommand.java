package org.sparknmt.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunLock;
import org.sparknmt.translate.ShortlistFile;
import org.sparknmt.translate.ShortlistJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparknmt shortlist}: a run's vocabulary shortlist from its prepared training pairs, in {@code RUN/shortlist/}. */
@Command(name = "shortlist", mixinStandardHelpOptions = true,
    description = {"Build a vocabulary shortlist from a run's prepared training pairs on Spark: for each source token the",
        "--top target tokens by Dice coefficient of sentence co-occurrence, and the --frequent most frequent target tokens.",
        "Written to RUN/shortlist/shortlist.txt; translate --shortlist run (translate.shortlist = run) searches with it."})
public final class ShortlistCommand implements Callable<Integer> {
  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory with a prepared RUN/data.")
  String run;

  // K 20 and N 100 keep 98.4% of Multi30k's validation reference tokens reachable with half the vocabulary's
  // rows in batches of 128 (ShortlistCoverage; docs/translate.md)
  @Option(names = "--top", defaultValue = "20", paramLabel = "K",
      description = "Target tokens kept for each source token. Default: ${DEFAULT-VALUE}.")
  int top;

  @Option(names = "--frequent", defaultValue = "100", paramLabel = "N",
      description = "Most frequent target tokens kept for every sentence. Default: ${DEFAULT-VALUE}.")
  int frequent;

  @Mixin SparkOptions spark;
  @Mixin RunLockOption runLock;

  @Override
  public Integer call() throws Exception {
    if (top < 1) {
      throw new UsageException("--top must be at least 1, got " + top);
    }
    if (frequent < 0) {
      throw new UsageException("--frequent must be at least 0, got " + frequent);
    }
    try (JavaSparkContext sc = new JavaSparkContext(spark.sparkConf("sparknmt shortlist " + run));
        RunLock lock = runLock.acquire(run, "shortlist", sc.hadoopConfiguration())) {
      long start = System.nanoTime();
      ShortlistFile shortlist = ShortlistJob.run(sc, run, top, frequent);
      Path file = RunLayout.of(run).shortlist();
      shortlist.write(file, sc.hadoopConfiguration());
      int listed = 0;
      for (int s = 0; s < shortlist.shortlist().vocabSize(); s++) {
        listed += shortlist.shortlist().targets(s).length > 0 ? 1 : 0;
      }
      System.out.printf("shortlist: %d source tokens with up to %d targets, %d frequent targets -> %s in %.1f s%n",
          listed, top, shortlist.shortlist().always().length, file, (System.nanoTime() - start) / 1e9);
    }
    return ExitCodes.OK;
  }
}
