package org.sparknmt.job.train;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.shard.EncodedPair;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.job.checkpoint.TrainedModel;
import org.sparknmt.job.metrics.Bleu;
import org.sparknmt.job.translate.LengthSortedBatches;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.Translation;

/**
 * BLEU of greedy translations of the first valid sentences against their references, both
 * detokenized from subwords (so the references are the normalized valid text), scored with the
 * evaluate job's sacreBLEU-compatible scorer. Greedy and a sample keep it cheap enough to run at
 * every validation; {@code sparknmt evaluate} gives the full beam-search score. Sentences are
 * searched in length-sorted batches as {@code sparknmt translate} searches them.
 */
final class ValidationBleu {
  // translate's default batch (translate.batch_size)
  private static final int CHUNK = 128;

  private ValidationBleu() {}

  static double of(ComputationGraph graph, List<Batch> batches, BpeEncoder bpe, int sentences) {
    List<EncodedPair> pairs = batches.stream().flatMap(b -> b.pairs().stream()).limit(sentences).toList();
    int[][] sources = pairs.stream().map(p -> TrainedModel.source(p.source())).toArray(int[][]::new);
    Translation[] translations = LengthSortedBatches.translate(TrainedModel.translator(graph), sources,
        DecodingOptions.greedy(), CHUNK);
    List<String> hypotheses = new ArrayList<>();
    List<String> references = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      hypotheses.add(bpe.decode(translations[i].tokens()));
      references.add(bpe.decode(pairs.get(i).target()));
    }
    return Bleu.corpus(hypotheses, references).score();
  }
}
