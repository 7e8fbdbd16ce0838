package org.sparknmt.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.threads.WorkspaceThreads;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthSortedBatches;
import org.sparknmt.model.decode.Translation;

/**
 * BLEU of greedy translations of the first valid sentences against their references, both
 * detokenized from subwords (so the references are the normalized valid text), scored with the
 * evaluate job's sacreBLEU-compatible scorer. Greedy and a sample keep it cheap enough to run at
 * every validation; {@code sparknmt evaluate} gives the full beam-search score. Sentences are
 * searched in length-sorted batches as {@code sparknmt translate} searches them, in as many searches at
 * once as the driver has cores (each a share of the sentences, dealt out in order of length so that the
 * shares take about as long), on search threads that keep their workspaces from one validation to the
 * next.
 */
final class ValidationBleu {
  // translate's default batch (translate.batch_size)
  private static final int CHUNK = 128;

  private ValidationBleu() {}

  static double of(ComputationGraph graph, List<Batch> batches, BpeEncoder bpe, int sentences, WorkspaceThreads threads,
      int searches) {
    List<EncodedPair> pairs = batches.stream().flatMap(b -> b.pairs().stream()).limit(sentences).toList();
    int[][] sources = pairs.stream().map(p -> TrainedModel.source(p.source())).toArray(int[][]::new);
    Translation[] translations = translate(graph, sources, threads, searches);
    List<String> hypotheses = new ArrayList<>();
    List<String> references = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      hypotheses.add(bpe.decode(translations[i].tokens()));
      references.add(bpe.decode(pairs.get(i).target()));
    }
    return Bleu.corpus(hypotheses, references).score();
  }

  /** Greedy translations of the sources, in their order, in {@code searches} shares searched at once. */
  static Translation[] translate(ComputationGraph graph, int[][] sources, WorkspaceThreads threads, int searches) {
    Integer[] byLength = IntStream.range(0, sources.length).boxed().toArray(Integer[]::new);
    Arrays.sort(byLength, Comparator.comparingInt((Integer i) -> sources[i].length));
    List<int[]> shares = new ArrayList<>();
    for (int s = 0; s < Math.min(searches, sources.length); s++) {
      int share = s;
      shares.add(IntStream.range(0, byLength.length).filter(i -> i % searches == share).map(i -> byLength[i]).toArray());
    }
    List<Supplier<Translation[]>> work = new ArrayList<>();
    for (int[] share : shares) {
      int[][] shareSources = Arrays.stream(share).mapToObj(i -> sources[i]).toArray(int[][]::new);
      work.add(() -> LengthSortedBatches.translate(TrainedModel.translator(graph), shareSources, DecodingOptions.greedy(),
          CHUNK));
    }
    List<Translation[]> searched = threads.runAll(work);
    Translation[] translations = new Translation[sources.length];
    for (int s = 0; s < shares.size(); s++) {
      for (int k = 0; k < shares.get(s).length; k++) {
        translations[shares.get(s)[k]] = searched.get(s)[k];
      }
    }
    return translations;
  }
}
