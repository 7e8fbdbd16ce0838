package org.sparknmt.job.prepare;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.datasets.clean.Normalizer;
import org.sparknmt.datasets.spark.PreparedData;
import org.sparknmt.datasets.spark.RunLayout;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.datasets.vocab.BpeModel;

/**
 * Encoding throughput alone, for {@code scripts/bench-prepare}: the vocabulary of a prepared run
 * encodes the sentences of a text file on 1..N threads, each thread a fresh {@link BpeEncoder}
 * (its word cache starts empty every pass), best of a few passes after a warm-up; once on
 * normalized text (encoding alone) and once normalizing raw text on the way (what prepare does).
 *
 * <p>{@code EncodeBenchmark RUN TEXT_FILE THREADS...}
 */
public final class EncodeBenchmark {
  private static final int PASSES = 5;

  private EncodeBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      throw new IllegalArgumentException("usage: EncodeBenchmark RUN TEXT_FILE THREADS...");
    }
    PreparedData data = PreparedData.open(args[0], new Configuration());
    BpeModel model = data.vocabulary();
    List<String> raw = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
    List<String> normalized = raw.stream().map(Normalizer::normalize).toList();
    for (int i = 2; i < args.length; i++) {
      int threads = Integer.parseInt(args[i]);
      report("encode", model, args[0], normalized, threads, false);
      report("normalize+encode", model, args[0], raw, threads, true);
    }
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
  static long encode(BpeModel model, List<String> sentences, int threads, boolean normalize) throws Exception {
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
