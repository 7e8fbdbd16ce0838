package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.CopyTaskTest;
import org.sparknmt.model.TestModels;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * Incremental decoding ({@link BeamSearch}) against the full recomputation of every prefix at every
 * step ({@link FullRecomputeSearch}): the same tokens and the same scores within 1e-5 for every
 * sentence, whatever the padding and the batch composition.
 */
class IncrementalSearchTest {
  static final ControlTokens TOKENS = new ControlTokens(0, 1, 2);
  static final int VOCAB = 16;
  private static final double SCORE_TOLERANCE = 1e-5;

  /**
   * A model with every parameter uniform in [−0.5, 0.5). Such a model hardly ever emits EOS (or emits it
   * at once), so its outputs run to their sources' length limits and leave a batch at different steps;
   * hypotheses ending with EOS inside a beam are the copy-task model's case.
   */
  static Transformer randomModel(long seed, boolean preNorm, boolean shareEmbeddings, boolean learnedPositions) {
    TransformerConfig config = TestModels.minimal().dModel(32).heads(4).dFf(64).layers(2).maxLength(40)
        .labelSmoothing(0).shareEmbeddings(shareEmbeddings).preNorm(preNorm).learnedPositions(learnedPositions).build();
    Params params = new Params();
    Transformer model = new Transformer(config, VOCAB, params);
    Nd4j.getRandom().setSeed(seed);
    params.bindValues(params.split(Nd4j.rand(DataType.FLOAT, 1, params.size()).subi(0.5)));
    return model;
  }

  /** Sources of 1 to 12 tokens plus EOS, so every batch is padded. */
  static int[][] sources(Random random, int n, int vocab) {
    int[][] s = new int[n][];
    for (int i = 0; i < n; i++) {
      s[i] = new int[2 + random.nextInt(12)];
      for (int t = 0; t < s[i].length - 1; t++) {
        s[i][t] = 3 + random.nextInt(vocab - 3);
      }
      s[i][s[i].length - 1] = TOKENS.eos();
    }
    return s;
  }

  static DecodingOptions options(int beam) {
    return DecodingOptions.beam(beam).withLengthPenalty(new LengthPenalty.Gnmt(0.6)).withMaxLength(1.5, 4);
  }

  static void assertSameTranslations(List<Translation> expected, List<Translation> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).tokens(), actual.get(i).tokens(), what + ": tokens of sentence " + i);
      assertEquals(expected.get(i).finished(), actual.get(i).finished(), what + ": EOS of sentence " + i);
      assertEquals(expected.get(i).score(), actual.get(i).score(), SCORE_TOLERANCE, what + ": score of sentence " + i);
    }
  }

  /** Incremental search over sentences taken in the given order and in batches of batchSize, back in input order. */
  private static List<Translation> incremental(Transformer model, int[][] sources, int beam, int[] order, int batchSize) {
    Translation[] out = new Translation[sources.length];
    for (int start = 0; start < order.length; start += batchSize) {
      int[] rows = Arrays.copyOfRange(order, start, Math.min(order.length, start + batchSize));
      int[][] batch = Arrays.stream(rows).mapToObj(r -> sources[r]).toArray(int[][]::new);
      List<Translation> t = new BeamSearch(model, TOKENS).search(batch, options(beam), DataType.FLOAT);
      for (int i = 0; i < rows.length; i++) {
        out[rows[i]] = t.get(i);
      }
    }
    return List.of(out);
  }

  /** The lengths at which the searches stopped: they must differ, or sentences never left a batch early. */
  private static long distinctLengths(List<Translation> translations) {
    return translations.stream().mapToInt(t -> t.tokens().length).distinct().count();
  }

  @ParameterizedTest(name = "seed {0}, pre-norm {1}, shared embeddings {2}, learned positions {3}, beam {4}")
  @CsvSource({
      "1, false, true, false, 1", "1, false, true, false, 4",
      "2, true, true, false, 1", "2, true, true, false, 4",
      "3, false, false, true, 1", "3, false, false, true, 4",
      "5, true, false, false, 4"})
  void randomModelsSearchLikeTheFullRecomputation(long seed, boolean preNorm, boolean share, boolean learned, int beam) {
    Transformer model = randomModel(seed, preNorm, share, learned);
    int[][] sources = sources(new Random(seed), 12, VOCAB);
    List<Translation> expected = new FullRecomputeSearch(model, TOKENS).search(sources, options(beam), DataType.FLOAT);
    assertTrue(distinctLengths(expected) > 2,
        "outputs end at different steps: " + expected.stream().map(t -> t.tokens().length).toList());
    int[] inOrder = IntStream.range(0, sources.length).toArray();
    assertSameTranslations(expected, incremental(model, sources, beam, inOrder, sources.length), "one batch");
    int[] reversed = IntStream.range(0, sources.length).map(i -> sources.length - 1 - i).toArray();
    assertSameTranslations(expected, incremental(model, sources, beam, reversed, 5), "reversed, batches of 5");
    assertSameTranslations(expected, incremental(model, sources, beam, inOrder, 1), "one sentence at a time");
  }

  @Test
  void copyTaskModelSearchesLikeTheFullRecomputation() {
    TransformerConfig config = TestModels.minimal().dModel(32).dFf(64).layers(2).labelSmoothing(0).build();
    ComputationGraph graph = TransformerFactory.create(config, CopyTaskTest.VOCAB, TransformerFactory.paperAdam(3e-3), 1,
        DataType.FLOAT);
    Random random = new Random(7);
    // far enough to end most outputs with EOS at their own lengths, not yet exact (some outputs differ)
    for (int step = 0; step < 300; step++) {
      graph.fit(CopyTaskTest.batch(CopyTaskTest.sentences(random, 32)));
    }
    Transformer model = TransformerFactory.newTransformer(graph);
    int[][] sources = CopyTaskTest.sources(CopyTaskTest.sentences(random, 24));
    for (int beam : new int[] {1, 4}) {
      DecodingOptions options = options(beam).withMaxLength(1.0, 2);
      List<Translation> expected = new FullRecomputeSearch(model, CopyTaskTest.TOKENS)
          .search(sources, options, DataType.FLOAT);
      assertTrue(expected.stream().filter(Translation::finished).count() > sources.length / 2 && distinctLengths(expected) > 2,
          "the trained model ends most outputs with EOS, at different steps");
      List<Translation> actual = new BeamSearch(model, CopyTaskTest.TOKENS).search(sources, options, DataType.FLOAT);
      assertSameTranslations(expected, actual, "copy task, beam " + beam);
    }
  }

  @Test
  void attentionMapsAreTheTeacherForcedOnesAfterASearch() {
    Transformer model = randomModel(5, false, true, false);
    Translator translator = new Translator(model, TOKENS, DataType.FLOAT);
    int[] source = {5, 6, 7, 8, TOKENS.eos()};
    int[] output = {9, 10, 11};
    AttentionMaps before = translator.attention(source, output);
    translator.beam(sources(new Random(5), 6, VOCAB), options(4));
    AttentionMaps after = translator.attention(source, output);
    List<INDArray> expected = new ArrayList<>(before.encoderSelf());
    expected.addAll(before.decoderSelf());
    expected.addAll(before.crossAttention());
    List<INDArray> actual = new ArrayList<>(after.encoderSelf());
    actual.addAll(after.decoderSelf());
    actual.addAll(after.crossAttention());
    assertEquals(expected, actual);
    assertArrayEquals(new long[] {4, 4, 4}, after.decoderSelf().get(0).shape(), "[heads, BOS + output, BOS + output]");
  }

  @Test
  void aBeamAsWideAsTheVocabularyIsRefused() {
    Transformer model = randomModel(1, false, true, false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BeamSearch(model, TOKENS).search(sources(new Random(1), 2, VOCAB), options(VOCAB), DataType.FLOAT));
    assertTrue(e.getMessage().contains("beam width 16"), e.getMessage());
  }
}
