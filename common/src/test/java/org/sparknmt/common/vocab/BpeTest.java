package org.sparknmt.common.vocab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.clean.Normalizer;

class BpeTest {
  private static final List<String> CORPUS = List.of(
      "the lower the newer the widest", "a low lower lowest slow", "new newer newest wide wider widest",
      "Zwei junge Männer spielen im Schnee.", "Ein Hund läuft über die Wiese.");

  private static Map<String, Long> counts(List<String> sentences) {
    Map<String, Long> counts = new HashMap<>();
    for (String s : sentences) {
      for (String w : Normalizer.normalize(s).split(" ")) {
        counts.merge(w, 1L, Long::sum);
      }
    }
    return counts;
  }

  @Test
  void learnsTheMostFrequentPairFirstBreakingTiesByIds() {
    // Pairs: e-s 9, s-t 9, w-e 8, l-o 7 ... ; characters by count: e 17, w 16, s 9, t 9, so e-s has the smaller ids.
    Map<String, Long> counts = Map.of("low", 5L, "lower", 2L, "newest", 6L, "widest", 3L);
    BpeModel model = BpeLearner.learn(WordCounts.of(counts), 300, 1.0);
    assertEquals("es", model.piece(model.firstMergeId()));
    assertEquals("est", model.piece(model.firstMergeId() + 1));
    assertEquals(SpecialTokens.FIRST_CHAR + model.alphabet().length + model.merges(), model.size());
    assertTrue(model.size() < 300, "stops when no pair occurs twice");
  }

  @Test
  void isDeterministicAndRoundTripsThroughJson() {
    BpeModel a = BpeLearner.learn(WordCounts.of(counts(CORPUS)), 320, 1.0);
    BpeModel b = BpeLearner.learn(WordCounts.of(new HashMap<>(counts(CORPUS))), 320, 1.0);
    assertArrayEquals(a.toJson(), b.toJson());
    BpeModel read = BpeModel.fromJson(a.toJson());
    assertEquals(a.sha256(), read.sha256());
    assertEquals(64, a.sha256().length());
  }

  @Test
  void mergesStayInsideRunsOfLettersDigitsOrPunctuation() {
    // "street." is the most frequent word: a whole-word BPE would learn it as one piece
    Map<String, Long> counts = Map.of("street.", 50L, "street", 3L, "2024,", 20L);
    BpeModel model = BpeLearner.learn(WordCounts.of(counts), 400, 1.0);
    for (int id = model.firstMergeId(); id < model.size(); id++) {
      String piece = model.piece(id).replace("\u2581", "");
      assertTrue(piece.chars().allMatch(Character::isLetter) || piece.chars().allMatch(Character::isDigit)
          || piece.chars().noneMatch(Character::isLetterOrDigit), "piece '" + model.piece(id) + "' mixes classes");
    }
    BpeEncoder encoder = new BpeEncoder(model);
    assertEquals(List.of("\u2581street", "."), pieces(model, encoder.encode("street.")));
    assertEquals(List.of("\u2581street"), pieces(model, encoder.encode("street")));
    assertEquals(List.of("\u25812024", ","), pieces(model, encoder.encode("2024,")));
    assertEquals("street. street 2024,", encoder.decode(encoder.encode("street. street 2024,")));
  }

  @Test
  void aVocabularyOfTheFirstFormatStillMergesAcrossTheWord() {
    BpeModel learned = BpeLearner.learn(WordCounts.of(Map.of("ab.", 9L)), 400, 1.0);
    int[] alphabet = learned.alphabet();
    int a = SpecialTokens.FIRST_CHAR + indexOf(alphabet, 'a');
    int b = SpecialTokens.FIRST_CHAR + indexOf(alphabet, 'b');
    int dot = SpecialTokens.FIRST_CHAR + indexOf(alphabet, '.');
    int first = SpecialTokens.FIRST_CHAR + alphabet.length;
    // the merges a whole-word learner made: ▁a, ▁ab, ▁ab.
    int[][] merges = {{SpecialTokens.WORD, a}, {first, b}, {first + 1, dot}};
    byte[] json = new BpeModel(alphabet, merges, false).toJson();
    assertTrue(new String(json, StandardCharsets.UTF_8).contains("\"" + BpeModel.FORMAT_WHOLE_WORDS + "\""));
    BpeModel old = BpeModel.fromJson(json);
    assertFalse(old.splitsCharacterClasses());
    assertEquals(List.of("\u2581ab."), pieces(old, new BpeEncoder(old).encode("ab.")));
    BpeModel split = new BpeModel(alphabet, merges, true);
    assertEquals(List.of("\u2581ab", "."), pieces(split, new BpeEncoder(split).encode("ab.")));
  }

  private static List<String> pieces(BpeModel model, int[] ids) {
    return java.util.Arrays.stream(ids).mapToObj(model::piece).toList();
  }

  private static int indexOf(int[] alphabet, int cp) {
    for (int i = 0; i < alphabet.length; i++) {
      if (alphabet[i] == cp) {
        return i;
      }
    }
    throw new AssertionError("not in the alphabet: " + (char) cp);
  }

  @Test
  void rejectsAForeignFile() {
    byte[] json = "{\"format\":\"other\",\"size\":1,\"reserved\":[],\"alphabet\":[],\"merges\":[]}"
        .getBytes(StandardCharsets.UTF_8);
    assertThrows(IllegalArgumentException.class, () -> BpeModel.fromJson(json));
  }

  @Test
  void encodesLosslesslyIncludingAdversarialText() {
    BpeEncoder encoder = new BpeEncoder(BpeLearner.learn(WordCounts.of(counts(CORPUS)), 330, 0.98));
    List<String> texts = List.of(
        "the newest lower widest", "Zwei Männer", "emoji 😀 👨‍👩‍👧 🇩🇪 ok",
        "combining e\u0301 a\u0308\u0301 \u0915\u094D\u0937", "CJK 漢字かなカナ한국어", "RTL עברית العربية ‏mixed‏",
        "digits 0123456789 ١٢٣", "punct !!!??? ... ---- «»„“", "literal ▁ marker ▁▁x▁", "x", "\uD800\uDC00 ok",
        "tab-free \u200B zero width");
    for (String raw : texts) {
      String s = Normalizer.normalize(raw);
      int[] ids = encoder.encode(s);
      assertEquals(s, encoder.decode(ids), raw);
      for (int id : ids) {
        assertTrue(id > SpecialTokens.UNK && id < encoder.model().size(), "id " + id + " in " + raw);
      }
    }
    assertArrayEquals(new int[0], encoder.encode(""));
  }

  @Test
  void mergesFrequentWordsIntoFewTokens() {
    BpeEncoder encoder = new BpeEncoder(BpeLearner.learn(WordCounts.of(counts(CORPUS)), 400, 1.0));
    assertEquals(1, encoder.encode("the").length);
    int[] bytes = encoder.encode("😀");
    assertEquals(1 + 4, bytes.length, "marker plus four UTF-8 bytes");
    assertEquals("<0xF0>", encoder.model().piece(bytes[1]));
  }
}
