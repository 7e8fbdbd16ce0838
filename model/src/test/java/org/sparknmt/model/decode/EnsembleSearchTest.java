package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparknmt.model.decode.IncrementalSearchTest.TOKENS;
import static org.sparknmt.model.decode.IncrementalSearchTest.VOCAB;
import static org.sparknmt.model.decode.IncrementalSearchTest.assertSameTranslations;
import static org.sparknmt.model.decode.IncrementalSearchTest.options;
import static org.sparknmt.model.decode.IncrementalSearchTest.randomModel;
import static org.sparknmt.model.decode.IncrementalSearchTest.sources;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.TestModels;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;

/** Ensembles in the incremental search: the mean of the models' log-probabilities at each step, against the full recomputation. */
class EnsembleSearchTest {

  @Test
  void anEnsembleOfOneOrOfTwoIdenticalModelsIsThePlainSearch() {
    Transformer model = randomModel(21, false, true, false);
    int[][] sources = sources(new Random(21), 10, VOCAB);
    for (int beam : new int[] {1, 4}) {
      List<Translation> plain = new BeamSearch(model, TOKENS).search(sources, options(beam), DataType.FLOAT);
      List<Translation> one = new BeamSearch(List.of(model), TOKENS).search(sources, options(beam), DataType.FLOAT);
      assertSameTranslations(plain, one, "beam " + beam + ", an ensemble of one");
      // the same tokens; scores within 1e-5, not to the bit: the mean log-probabilities are renormalized
      List<Translation> two = new BeamSearch(List.of(model, model), TOKENS).search(sources, options(beam), DataType.FLOAT);
      assertSameTranslations(plain, two, "beam " + beam + ", an ensemble of two identical models");
    }
  }

  @Test
  void anEnsembleSearchesTheOraclesMeanOfItsModelsLogProbabilities() {
    Transformer first = randomModel(22, false, true, false);
    Transformer second = randomModel(23, false, true, false);
    int[][] sources = sources(new Random(22), 10, VOCAB);
    DecodingOptions options = options(4);
    List<Transformer> ensemble = List.of(first, second);
    List<Beam> oracle = new FullRecomputeSearch(ensemble, TOKENS).beams(sources, options, DataType.FLOAT);
    List<List<Translation>> nbest = new BeamSearch(ensemble, TOKENS).nbest(sources, null, options, 4, DataType.FLOAT);
    for (int i = 0; i < sources.length; i++) {
      List<Translation> expected = oracle.get(i).finished().stream()
          .sorted(Comparator.comparingDouble(Translation::score).reversed()).toList();
      assertSameTranslations(expected, nbest.get(i), "sentence " + i);
    }
    List<Translation> alone = new BeamSearch(first, TOKENS).search(sources, options, DataType.FLOAT);
    List<Translation> other = new BeamSearch(second, TOKENS).search(sources, options, DataType.FLOAT);
    assertTrue(IntStream.range(0, sources.length).anyMatch(i -> !Arrays.equals(alone.get(i).tokens(),
        nbest.get(i).get(0).tokens()) && !Arrays.equals(other.get(i).tokens(), nbest.get(i).get(0).tokens())),
        "the ensemble translates some sentence as neither of its models");
    long[] seeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(1, i, 0)).toArray();
    List<Translation> greedy = new BeamSearch(ensemble, TOKENS).search(sources, options(1), DataType.FLOAT);
    List<Translation> sampled = new BeamSearch(ensemble, TOKENS).sample(sources, null, options(1), Sampling.topK(1, 1.0),
        seeds, DataType.FLOAT);
    for (int i = 0; i < sources.length; i++) {
      assertArrayEquals(greedy.get(i).tokens(), sampled.get(i).tokens(), "top-1 sampling of the ensemble, sentence " + i);
    }
  }

  @Test
  void modelsOfDifferentVocabulariesAreRefused() {
    Transformer small = randomModel(24, false, true, false);
    Params params = new Params();
    Transformer larger = new Transformer(TestModels.minimal().dModel(32).heads(4).dFf(64).layers(2).maxLength(40)
        .labelSmoothing(0).build(), VOCAB + 4, params);
    params.bindValues(params.split(Nd4j.rand(DataType.FLOAT, 1, params.size()).subi(0.5)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BeamSearch(List.of(small, larger), TOKENS));
    assertTrue(e.getMessage().contains("[16, 20]"), e.getMessage());
  }
}
