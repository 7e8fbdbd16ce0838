package org.sparknmt.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.clean.Normalizer;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Encoding throughput alone, for {@code scripts/bench-prepare}: the vocabulary of a prepared run
 * encodes the sentences of a text file on 1..N threads, each thread a fresh {@link BpeEncoder}
 * (its word cache starts empty every pass), best of a few passes after a warm-up; once on
 * normalized text (encoding alone) and once normalizing raw text on the way (what prepare does).
 */
@Command(name = "EncodeBenchmark", mixinStandardHelpOptions = true,
    description = "Print sentences/s of encoding a text file with a prepared run's vocabulary, per thread count.")
public final class EncodeBenchmark implements Callable<Integer> {
  private static final int PASSES = 5;

  @Parameters(index = "0", paramLabel = "RUN", description = "A prepared run (its vocabulary).")
  String run;

  @Parameters(index = "1", paramLabel = "TEXT_FILE", description = "Sentences, one a line.")
  Path text;

  @Parameters(index = "2..*", arity = "1..*", paramLabel = "THREADS", description = "Thread counts to measure.")
  List<Integer> threads;

  public static void main(String[] args) {
    System.exit(new CommandLine(new EncodeBenchmark()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PreparedData data = PreparedData.open(run, new Configuration());
    BpeModel model = data.vocabulary();
    List<String> raw = Files.readAllLines(text, StandardCharsets.UTF_8);
    List<String> normalized = raw.stream().map(Normalizer::normalize).toList();
    for (int n : threads) {
      report("encode", model, run, normalized, n, false);
      report("normalize+encode", model, run, raw, n, true);
    }
    return 0;
  }

  private static void report(String what, BpeModel model, String run, List<String> sentences, int threads,
      boolean normalize) throws Exception {
    double best = Double.MAX_VALUE;
    long tokens = 0;
    for (int pass = 0; pass <= PASSES; pass++) {
      long start = System.nanoTime();
      tokens = encode(model, sentences, threads, normalize);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (pass > 0) {
        best = Math.min(best, seconds);
      }
    }
    System.out.printf("sparknmt %s: vocab %d (%s), threads %d, %d sentences, %d tokens, %.3f s, %.0f sentences/s%n",
        what, model.size(), RunLayout.of(run).data(), threads, sentences.size(), tokens, best, sentences.size() / best);
  }

  /** Encodes all sentences on {@code threads} threads, contiguous slices, one encoder each; returns the token count. */
  private static long encode(BpeModel model, List<String> sentences, int threads, boolean normalize) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> parts = new ArrayList<>();
      int slice = (sentences.size() + threads - 1) / threads;
      for (int t = 0; t < threads; t++) {
        List<String> mine = sentences.subList(Math.min(sentences.size(), t * slice), Math.min(sentences.size(), (t + 1) * slice));
        parts.add(pool.submit(() -> {
          BpeEncoder encoder = new BpeEncoder(model);
          long tokens = 0;
          for (String s : mine) {
            tokens += encoder.encode(normalize ? Normalizer.normalize(s) : s).length;
          }
          return tokens;
        }));
      }
      long tokens = 0;
      for (Future<Long> part : parts) {
        tokens += part.get();
      }
      return tokens;
    } finally {
      pool.shutdown();
    }
  }
}
