package org.sparknmt.job.train;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.EncodedPair;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.job.checkpoint.TrainedModel;
import org.sparknmt.job.metrics.Bleu;
import org.sparknmt.job.threads.LocalTaskThreads;
import org.sparknmt.job.translate.LengthSortedBatches;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.Translation;
import org.sparknmt.model.decode.Translator;
import org.sparknmt.model.nn.PassWorkspace;

/**
 * BLEU of greedy translations of the first valid sentences against their references, both
 * detokenized from subwords (so the references are the normalized valid text), scored with the
 * evaluate job's sacreBLEU-compatible scorer. Greedy and a sample keep it cheap enough to run at
 * every validation; {@code sparknmt evaluate} gives the full beam-search score. Sentences are
 * searched in length-sorted batches as {@code sparknmt translate} searches them, by as many threads
 * of the driver as ND4J has (one ND4J thread each: a search's small arrays run slower on two threads
 * than on one, BENCHMARKS.md "Translation: where a search's time went"), each with its own translator
 * over the graph's parameters and every n-th sentence.
 */
final class ValidationBleu {
  private static final int CHUNK = 64;

  private ValidationBleu() {}

  static double of(ComputationGraph graph, List<Batch> batches, BpeEncoder bpe, int sentences) {
    List<EncodedPair> pairs = batches.stream().flatMap(b -> b.pairs().stream()).limit(sentences).toList();
    int[][] sources = pairs.stream().map(p -> TrainedModel.source(p.source())).toArray(int[][]::new);
    Translation[] translations = greedy(graph, sources);
    List<String> hypotheses = new ArrayList<>();
    List<String> references = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      hypotheses.add(bpe.decode(translations[i].tokens()));
      references.add(bpe.decode(pairs.get(i).target()));
    }
    return Bleu.corpus(hypotheses, references).score();
  }

  /** Greedy translations of {@code sources}, in their order, searched by up to one thread per ND4J thread. */
  static Translation[] greedy(ComputationGraph graph, int[][] sources) {
    int parts = Math.max(1, Math.min(Nd4j.getEnvironment().maxMasterThreads(), sources.length / CHUNK));
    List<Translator> translators = IntStream.range(0, parts).mapToObj(p -> TrainedModel.translator(graph)).toList();
    if (parts == 1) {
      return LengthSortedBatches.translate(translators.get(0), sources, DecodingOptions.greedy(), CHUNK);
    }
    ExecutorService pool = Executors.newFixedThreadPool(parts);
    try (LocalTaskThreads shared = LocalTaskThreads.among(parts)) {
      List<Future<Translation[]>> searches = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        int part = p;
        searches.add(pool.submit(() -> searchPart(translators.get(part), sources, part, parts)));
      }
      Translation[] translations = new Translation[sources.length];
      for (int p = 0; p < parts; p++) {
        Translation[] part = searches.get(p).get();
        for (int j = 0; j < part.length; j++) {
          translations[p + j * parts] = part[j];
        }
      }
      return translations;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("validation BLEU interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Sentences part, part + parts, part + 2·parts, ...: every part gets long and short ones alike. */
  private static Translation[] searchPart(Translator translator, int[][] sources, int part, int parts) {
    int[][] mine = IntStream.iterate(part, i -> i < sources.length, i -> i + parts).mapToObj(i -> sources[i])
        .toArray(int[][]::new);
    try {
      return LengthSortedBatches.translate(translator, mine, DecodingOptions.greedy(), CHUNK);
    } finally {
      // the pool's thread ends with this validation, and its workspaces would wait for a GC
      PassWorkspace.release();
    }
  }
}
