package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparknmt.model.decode.IncrementalSearchTest.TOKENS;
import static org.sparknmt.model.decode.IncrementalSearchTest.VOCAB;
import static org.sparknmt.model.decode.IncrementalSearchTest.assertSameTranslations;
import static org.sparknmt.model.decode.IncrementalSearchTest.options;
import static org.sparknmt.model.decode.IncrementalSearchTest.randomModel;
import static org.sparknmt.model.decode.IncrementalSearchTest.sources;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.sparknmt.model.nn.Transformer;

/** Searches that score only a shortlist's candidates: the whole vocabulary's, a restricted one's, against masked logits. */
class ShortlistSearchTest {

  /** Exactly the same outputs and scores, to the bit. */
  private static void assertIdentical(List<List<Translation>> expected, List<List<Translation>> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).size(), actual.get(i).size(), what + ", sentence " + i);
      for (int h = 0; h < expected.get(i).size(); h++) {
        Translation e = expected.get(i).get(h);
        Translation a = actual.get(i).get(h);
        assertArrayEquals(e.tokens(), a.tokens(), what + ", sentence " + i + " hypothesis " + h);
        assertEquals(Double.doubleToLongBits(e.score()), Double.doubleToLongBits(a.score()),
            what + ", score of sentence " + i + " hypothesis " + h + ": " + e.score() + " and " + a.score());
        assertEquals(e.finished(), a.finished());
      }
    }
  }

  /**
   * The model (with its own projection) with EOS's logit lowered by 10⁴, so its outputs run to their length
   * limits: such random models mostly emit EOS at once.
   */
  private static Transformer talkative(Transformer model) {
    model.generator().bias().putScalar(TOKENS.eos(), -1e4);
    return model;
  }

  private static int[][] prefixes(Random random, int n) {
    int[][] p = new int[n][];
    for (int i = 0; i < n; i += 2) {
      p[i] = random.ints(random.nextInt(4), 3, VOCAB).toArray();
    }
    return p;
  }

  @Test
  void aShortlistOfTheWholeVocabularyIsThePlainSearchBitForBit() {
    Shortlist whole = Shortlist.whole(VOCAB);
    for (boolean shared : new boolean[] {true, false}) {
      Transformer model = shared ? randomModel(31, false, true, false) : talkative(randomModel(31, false, false, false));
      Transformer second = randomModel(32, true, shared, false);
      int[][] sources = sources(new Random(31), 10, VOCAB);
      int[][] prefixes = prefixes(new Random(32), sources.length);
      String what = shared ? "shared embedding" : "own projection";
      for (List<Transformer> models : List.of(List.of(model), List.of(model, second))) {
        String kind = what + ", " + models.size() + " model(s)";
        BeamSearch plain = new BeamSearch(models, TOKENS);
        BeamSearch listed = new BeamSearch(models, TOKENS, whole);
        assertIdentical(plain.nbest(sources, prefixes, options(4), 4, DataType.FLOAT),
            listed.nbest(sources, prefixes, options(4), 4, DataType.FLOAT), kind + ", 4-best with prefixes");
        assertIdentical(List.of(plain.search(sources, options(1), DataType.FLOAT)),
            List.of(listed.search(sources, options(1), DataType.FLOAT)), kind + ", greedy");
        long[] seeds = IntStream.range(0, sources.length).mapToLong(i -> Sampling.sentenceSeed(5, i, 0)).toArray();
        for (Sampling sampling : List.of(Sampling.topK(5, 1.0), Sampling.topP(0.9, 1.2))) {
          assertIdentical(List.of(plain.sample(sources, prefixes, options(1), sampling, seeds, DataType.FLOAT)),
              List.of(listed.sample(sources, prefixes, options(1), sampling, seeds, DataType.FLOAT)), kind + ", " + sampling);
        }
      }
    }
  }

  /** Source token s lists 3 + s mod 4 (so only tokens 3 to 6 are listed); token 5 is always kept. */
  private static Shortlist restricted() {
    int[][] bySource = new int[VOCAB][];
    for (int s = 3; s < VOCAB; s++) {
      bySource[s] = new int[] {3 + s % 4};
    }
    return new Shortlist(VOCAB, bySource, new int[] {5});
  }

  @Test
  void aRestrictedShortlistNeverEmitsATokenOutsideItsCandidatesButEmitsPrefixes() {
    Shortlist shortlist = restricted();
    Transformer model = talkative(randomModel(33, false, false, false));
    int[][] sources = sources(new Random(33), 12, VOCAB);
    int[][] prefixes = prefixes(new Random(34), sources.length);
    boolean restrictsSomething = false;
    for (int i = 0; i < sources.length; i++) {
      int[][] one = {sources[i]};
      int[][] prefix = {prefixes[i]};
      int[] candidates = shortlist.candidates(one, prefix, TOKENS);
      for (Translation t : new BeamSearch(List.of(model), TOKENS, shortlist).nbest(one, prefix, options(3), 3,
          DataType.FLOAT).get(0)) {
        for (int token : t.tokens()) {
          assertTrue(Arrays.binarySearch(candidates, token) >= 0, "sentence " + i + " emits " + token
              + " outside its candidates " + Arrays.toString(candidates) + ": " + Arrays.toString(t.tokens()));
        }
        int[] p = prefixes[i] == null ? new int[0] : prefixes[i];
        assertArrayEquals(p, Arrays.copyOf(t.tokens(), p.length), "sentence " + i + " starts with its prefix");
      }
      restrictsSomething |= Arrays.stream(new BeamSearch(model, TOKENS).search(one, options(3), DataType.FLOAT).get(0)
          .tokens()).anyMatch(token -> Arrays.binarySearch(candidates, token) < 0);
    }
    assertTrue(restrictsSomething, "the plain search emits tokens the shortlist leaves out");
    assertArrayEquals(new int[] {0, 1, 2, 4, 5, 6, 10}, shortlist.candidates(new int[][] {{5, 7, 2}}, new int[][] {{10}},
        TOKENS), "control tokens, the kept token 5, source 5's 4 and 7's 6, prefix 10");
  }

  @Test
  void aRestrictedSearchIsTheSearchOfAModelWhoseOtherTokensHaveNoProbability() {
    Shortlist shortlist = restricted();
    int[][] sources = sources(new Random(35), 8, VOCAB);
    int[][] prefixes = prefixes(new Random(36), sources.length);
    Transformer model = talkative(randomModel(35, false, false, false));
    Transformer masked = talkative(randomModel(35, false, false, false));
    int[] candidates = shortlist.candidates(sources, prefixes, TOKENS);
    for (int t = 0; t < VOCAB; t++) {
      if (Arrays.binarySearch(candidates, t) < 0) {
        // exp of the logit less the row's largest is 0 in float: the token has no probability
        masked.generator().bias().putScalar(t, -1e4);
      }
    }
    List<List<Translation>> expected = new BeamSearch(masked, TOKENS).nbest(sources, prefixes, options(4), 4, DataType.FLOAT);
    List<List<Translation>> listed = new BeamSearch(List.of(model), TOKENS, shortlist).nbest(sources, prefixes, options(4),
        4, DataType.FLOAT);
    for (int i = 0; i < sources.length; i++) {
      assertSameTranslations(expected.get(i), listed.get(i), "sentence " + i);
    }
  }

  @Test
  void aShortlistOfAnotherVocabularyOrTooFewTokensIsRefused() {
    Transformer model = randomModel(37, false, true, false);
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> new BeamSearch(List.of(model), TOKENS, Shortlist.whole(VOCAB + 1)));
    assertTrue(other.getMessage().contains((VOCAB + 1) + " tokens") && other.getMessage().contains(String.valueOf(VOCAB)),
        other.getMessage());
    Shortlist tiny = new Shortlist(VOCAB, new int[0][], new int[0]);
    IllegalArgumentException few = assertThrows(IllegalArgumentException.class, () -> new BeamSearch(List.of(model),
        TOKENS, tiny).search(new int[][] {{4, 2}}, options(4), DataType.FLOAT));
    assertTrue(few.getMessage().contains("3 of the shortlist's"), few.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Shortlist(VOCAB, new int[][] {{VOCAB}}, new int[0]));
  }
}
