package org.sparknmt.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.model.decode.Shortlist;
import org.sparknmt.translate.ShortlistFile;
import org.sparknmt.translate.ShortlistJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * How a vocabulary shortlist's sizes trade the tokens a search scores against the reference tokens it can
 * emit, without a trained model: a shortlist is built from RUN's training pairs ({@link ShortlistJob}), and for
 * each --top K and --frequent N its truncation is applied to RUN's valid pairs in batches of --batch sentences
 * of similar length (as translate forms them): the mean candidates a batch (the generator's rows a search step
 * computes) and the share of the references' target tokens inside their batch's candidates (an upper bound of
 * what a search over the shortlist can reproduce).
 */
@Command(name = "ShortlistCoverage", mixinStandardHelpOptions = true,
    description = "Print candidates a batch and reference coverage of shortlists of several sizes on a run's valid pairs.")
public final class ShortlistCoverage implements Callable<Integer> {
  @Option(names = "--run", required = true, paramLabel = "RUN", description = "A prepared run.")
  String run;

  @Option(names = "--top", defaultValue = "5,10,20,50", split = ",", paramLabel = "K,...")
  int[] tops;

  @Option(names = "--frequent", defaultValue = "0,50,100,300", split = ",", paramLabel = "N,...")
  int[] frequents;

  @Option(names = "--batch", defaultValue = "128", paramLabel = "N")
  int batch;

  @Option(names = "--master", defaultValue = "local[2]", paramLabel = "MASTER")
  String master;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ShortlistCoverage()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("shortlist coverage").setMaster(master)
        .set("spark.ui.enabled", "false"))) {
      long start = System.nanoTime();
      int maxTop = Arrays.stream(tops).max().getAsInt();
      int maxFrequent = Arrays.stream(frequents).max().getAsInt();
      ShortlistFile built = ShortlistJob.run(sc, run, maxTop, maxFrequent);
      System.out.printf("shortlist of %s (top %d, frequent %d) built in %.1f s%n", run, maxTop, maxFrequent,
          (System.nanoTime() - start) / 1e9);
      List<EncodedPair> valid = new ArrayList<>(PreparedData.open(run, sc.hadoopConfiguration()).batches(sc, Split.VALID)
          .flatMap(b -> b.pairs().iterator()).collect());
      valid.sort(Comparator.comparingInt((EncodedPair p) -> p.source().length).thenComparingLong(EncodedPair::lineId));
      Shortlist full = built.shortlist();
      System.out.printf("%d valid pairs in batches of %d, vocabulary %d%n", valid.size(), batch, full.vocabSize());
      for (int top : tops) {
        for (int frequent : frequents) {
          Shortlist cut = truncated(full, top, frequent);
          long candidates = 0;
          long covered = 0;
          long tokens = 0;
          int batches = 0;
          for (int from = 0; from < valid.size(); from += batch) {
            List<EncodedPair> pairs = valid.subList(from, Math.min(valid.size(), from + batch));
            int[] ids = cut.candidates(pairs.stream().map(p -> TrainedModel.source(p.source())).toArray(int[][]::new),
                null, TrainedModel.TOKENS);
            candidates += ids.length;
            batches++;
            for (EncodedPair p : pairs) {
              for (int t : p.target()) {
                tokens++;
                covered += Arrays.binarySearch(ids, t) >= 0 ? 1 : 0;
              }
            }
          }
          System.out.printf("top %d frequent %d: %.0f candidates a batch (%.1f%% of the vocabulary), "
              + "%.2f%% of the reference tokens covered%n", top, frequent, (double) candidates / batches,
              100.0 * candidates / batches / full.vocabSize(), 100.0 * covered / tokens);
        }
      }
    }
    return 0;
  }

  private static Shortlist truncated(Shortlist full, int top, int frequent) {
    int[][] bySource = new int[full.vocabSize()][];
    for (int s = 0; s < bySource.length; s++) {
      int[] t = full.targets(s);
      bySource[s] = Arrays.copyOf(t, Math.min(top, t.length));
    }
    int[] always = full.always();
    return new Shortlist(full.vocabSize(), bySource, Arrays.copyOf(always, Math.min(frequent, always.length)));
  }
}
