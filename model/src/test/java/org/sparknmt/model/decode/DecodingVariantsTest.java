package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparknmt.model.decode.IncrementalSearchTest.TOKENS;
import static org.sparknmt.model.decode.IncrementalSearchTest.VOCAB;
import static org.sparknmt.model.decode.IncrementalSearchTest.assertSameTranslations;
import static org.sparknmt.model.decode.IncrementalSearchTest.options;
import static org.sparknmt.model.decode.IncrementalSearchTest.randomModel;
import static org.sparknmt.model.decode.IncrementalSearchTest.sources;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.TestModels;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerConfig;

/** n-best lists, forced prefixes, sampling and alignments of the incremental search, against the full recomputation where one applies. */
class DecodingVariantsTest {
  private static final DecodingOptions GREEDY = DecodingOptions.greedy().withMaxLength(1.5, 4);

  @Test
  void nbestListsAreTheOraclesFinishedHypothesesSortedByScore() {
    for (boolean preNorm : new boolean[] {false, true}) {
      Transformer model = randomModel(11, preNorm, true, false);
      int[][] sources = sources(new Random(11), 10, VOCAB);
      DecodingOptions options = options(4);
      List<Beam> oracle = new FullRecomputeSearch(model, TOKENS).beams(sources, options, DataType.FLOAT);
      for (int n : new int[] {1, 3, 4}) {
        List<List<Translation>> nbest = new BeamSearch(model, TOKENS).nbest(sources, null, options, n, DataType.FLOAT);
        for (int i = 0; i < sources.length; i++) {
          List<Translation> expected = oracle.get(i).finished().stream()
              .sorted(Comparator.comparingDouble(Translation::score).reversed()).limit(n).toList();
          assertSameTranslations(expected, nbest.get(i), "pre-norm " + preNorm + ", " + n + "-best of sentence " + i);
          for (int h = 1; h < nbest.get(i).size(); h++) {
            assertTrue(nbest.get(i).get(h - 1).score() >= nbest.get(i).get(h).score(), "best first");
          }
        }
        if (n == 4) {
          assertTrue(nbest.stream().anyMatch(l -> l.size() == 4), "some beams finish 4 hypotheses");
        }
      }
      List<Translation> best = new BeamSearch(model, TOKENS).search(sources, options, DataType.FLOAT);
      List<Translation> firsts = new BeamSearch(model, TOKENS).nbest(sources, null, options, 1, DataType.FLOAT).stream()
          .map(l -> l.get(0)).toList();
      assertSameTranslations(best, firsts, "1-best is the search's translation");
    }
  }

  /** Random prefixes of 0 to 7 tokens (an empty one and a null one among them): mostly not what the model would say. */
  private static int[][] prefixes(Random random, int n) {
    int[][] p = new int[n][];
    for (int i = 1; i < n; i++) {
      p[i] = random.ints(random.nextInt(8), 3, VOCAB).toArray();
    }
    p[1] = new int[0];
    return p;
  }

  @Test
  void forcedPrefixesAreEmittedAndTheBeamContinuesAsTheOraclesFromThem() {
    for (boolean preNorm : new boolean[] {false, true}) {
      Transformer model = randomModel(12, preNorm, true, false);
      int[][] sources = sources(new Random(12), 10, VOCAB);
      int[][] prefixes = prefixes(new Random(13), sources.length);
      DecodingOptions options = options(4);
      List<Beam> oracle = new FullRecomputeSearch(model, TOKENS).beams(sources, prefixes, options, DataType.FLOAT);
      List<List<Translation>> nbest = new BeamSearch(model, TOKENS).nbest(sources, prefixes, options, 4, DataType.FLOAT);
      for (int i = 0; i < sources.length; i++) {
        List<Translation> expected = oracle.get(i).finished().stream()
            .sorted(Comparator.comparingDouble(Translation::score).reversed()).toList();
        assertSameTranslations(expected, nbest.get(i), "pre-norm " + preNorm + ", sentence " + i);
        int[] prefix = prefixes[i] == null ? new int[0] : prefixes[i];
        for (Translation t : nbest.get(i)) {
          assertTrue(t.tokens().length >= prefix.length, "an output holds its prefix, even beyond a·|source| + b");
          assertArrayEquals(prefix, Arrays.copyOf(t.tokens(), prefix.length), "sentence " + i + " starts with its prefix");
        }
      }
    }
  }

  @Test
  void aPrefixOfTheGreedyOutputGivesTheGreedyOutput() {
    Transformer model = randomModel(14, false, false, true);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    int[][] sources = sources(new Random(14), 12, VOCAB);
    List<Translation> greedy = translator.beam(sources, GREEDY);
    int[][] prefixes = new int[sources.length][];
    for (int i = 0; i < sources.length; i++) {
      prefixes[i] = Arrays.copyOf(greedy.get(i).tokens(), i % (greedy.get(i).tokens().length + 1));
    }
    List<Translation> prefixed = translator.nbest(sources, prefixes, GREEDY, 1).stream().map(l -> l.get(0)).toList();
    assertSameTranslations(greedy, prefixed, "greedy search from a prefix of its own output");
    long[] seeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(3, i, 0)).toArray();
    int[][] others = prefixes(new Random(15), sources.length);
    assertSameTranslations(translator.nbest(sources, others, GREEDY, 1).stream().map(l -> l.get(0)).toList(),
        translator.sample(sources, others, GREEDY, Sampling.topK(1, 0.7), seeds), "top-1 sampling from a prefix");
  }

  @Test
  void aPrefixWithoutRoomForEosIsRefused() {
    Transformer model = randomModel(1, false, false, false);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    assertEquals(38, translator.maxPrefixLength(), "max_length 40 less BOS and EOS");
    int[][] sources = sources(new Random(1), 1, VOCAB);
    int[] longest = new int[38];
    Arrays.fill(longest, 5);
    Translation t = translator.nbest(sources, new int[][] {longest}, GREEDY, 1).get(0).get(0);
    assertTrue(t.tokens().length >= 38 && t.tokens().length <= 39, "the prefix and at most one more token");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> translator.nbest(sources, new int[][] {Arrays.copyOf(longest, 39)}, GREEDY, 1));
    assertTrue(e.getMessage().contains("39 tokens"), e.getMessage());
  }

  @Test
  void topOneSamplingIsGreedySearch() {
    Transformer model = randomModel(3, false, false, true);
    int[][] sources = sources(new Random(3), 12, VOCAB);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    List<Translation> greedy = translator.beam(sources, GREEDY);
    long[] seeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(42, i, 0)).toArray();
    for (double temperature : new double[] {0.5, 1.0, 3.0}) {
      List<Translation> sampled = translator.sample(sources, null, GREEDY, Sampling.topK(1, temperature), seeds);
      for (int i = 0; i < sources.length; i++) {
        assertArrayEquals(greedy.get(i).tokens(), sampled.get(i).tokens(), "sentence " + i + " at T " + temperature);
        assertEquals(greedy.get(i).score(), sampled.get(i).score(), 1e-5, "the model's log-probability, as greedy's");
        assertEquals(greedy.get(i).finished(), sampled.get(i).finished());
      }
    }
  }

  @Test
  void theSameSeedsGiveTheSameSamplesInAnyBatches() {
    Transformer model = randomModel(2, true, true, false);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    int[][] sources = sources(new Random(2), 12, VOCAB);
    long[] seeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(7, i, 0)).toArray();
    for (Sampling sampling : List.of(Sampling.topK(8, 1.0), Sampling.topP(0.9, 1.5))) {
      List<Translation> together = translator.sample(sources, null, GREEDY, sampling, seeds);
      // reversed, in batches of 5: every sentence in another batch at another row
      Translation[] apart = new Translation[sources.length];
      int[] order = IntStream.range(0, sources.length).map(i -> sources.length - 1 - i).toArray();
      for (int start = 0; start < order.length; start += 5) {
        int[] rows = Arrays.copyOfRange(order, start, Math.min(order.length, start + 5));
        List<Translation> t = translator.sample(Arrays.stream(rows).mapToObj(r -> sources[r]).toArray(int[][]::new),
            null, GREEDY, sampling, Arrays.stream(rows).mapToLong(r -> seeds[r]).toArray());
        for (int k = 0; k < rows.length; k++) {
          apart[rows[k]] = t.get(k);
        }
      }
      assertSameTranslations(together, List.of(apart), sampling + ", other batches");
      List<Translation> greedy = translator.beam(sources, GREEDY);
      assertTrue(IntStream.range(0, sources.length).anyMatch(i -> !Arrays.equals(greedy.get(i).tokens(),
          together.get(i).tokens())), sampling + " draws other outputs than greedy search");
      long[] otherSeeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(8, i, 0)).toArray();
      List<Translation> other = translator.sample(sources, null, GREEDY, sampling, otherSeeds);
      assertTrue(IntStream.range(0, sources.length).anyMatch(i -> !Arrays.equals(other.get(i).tokens(),
          together.get(i).tokens())), sampling + ": another seed draws other samples");
    }
  }

  @Test
  void sentenceSeedsDifferByRunSeedLineAndPiece() {
    long seed = Sampling.sentenceSeed(1, 0, 0);
    assertNotEquals(seed, Sampling.sentenceSeed(2, 0, 0));
    assertNotEquals(seed, Sampling.sentenceSeed(1, 1, 0));
    assertNotEquals(seed, Sampling.sentenceSeed(1, 0, 1));
    assertEquals(seed, Sampling.sentenceSeed(1, 0, 0));
  }

  @Test
  void samplingOptionsAreValidated() {
    assertThrows(IllegalArgumentException.class, () -> Sampling.topK(0, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Sampling.topP(1.5, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Sampling.topP(Double.NaN, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Sampling.topK(5, 0));
    assertThrows(IllegalArgumentException.class, () -> Sampling.topK(5, Double.NaN));
  }

  /**
   * A model whose last decoder layer's cross-attention is diagonal: every weight 0 but the layer norms' gains
   * (1), the cross-attention's query and key projections (c·I) and the generator (random, EOS's bias very
   * low). Every sublayer then adds 0, so both the encoder's output at source position j and the decoder's
   * state at target position i are LN(PE(·)), and query i scores key j by c²·LN(PE(i))·LN(PE(j)), largest at
   * j = i (Cauchy-Schwarz: the normalized vectors all have the same length). One head, so that no head's
   * part of the vectors decides alone.
   */
  @Test
  void alignmentsOfADiagonalCrossAttentionAreTheDiagonal() {
    TransformerConfig config = TestModels.minimal().dModel(32).heads(1).dFf(64).layers(2).maxLength(40)
        .labelSmoothing(0).shareEmbeddings(false).build();
    Params params = new Params();
    Transformer model = new Transformer(config, VOCAB, params);
    params.bindValues(params.split(Nd4j.zeros(DataType.FLOAT, 1, params.size())));
    Nd4j.getRandom().setSeed(4);
    params.layout().forEach((name, entry) -> {
      INDArray value = params.value(name);
      if (name.endsWith(".gain")) {
        value.assign(1);
      } else if (name.matches("decoder\\.layer\\d+\\.cross\\.[qk]\\.w")) {
        value.assign(Nd4j.eye(32).muli(4));
      } else if (name.startsWith("generator")) {
        value.assign(Nd4j.rand(DataType.FLOAT, value.shape()).subi(0.5));
      }
    });
    params.value("generator.b").putScalar(TOKENS.eos(), -100);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    int[][] sources = sources(new Random(4), 8, VOCAB);
    List<Translation> outputs = translator.beam(sources,
        DecodingOptions.beam(2).withLengthPenalty(new LengthPenalty.Gnmt(0.6)).withMaxLength(1, 0));
    int[][] alignments = translator.alignments(sources, outputs.stream().map(Translation::tokens).toArray(int[][]::new));
    List<String> names = new ArrayList<>(params.layout().keySet());
    for (int i = 0; i < sources.length; i++) {
      int words = sources[i].length - 1;
      assertEquals(words + 1, outputs.get(i).tokens().length, "EOS never wins: the output runs to a·|source|, " + names);
      for (int j = 0; j < words; j++) {
        assertEquals(j, alignments[i][j], "sentence " + i + ", target token " + j);
      }
    }
  }
}
