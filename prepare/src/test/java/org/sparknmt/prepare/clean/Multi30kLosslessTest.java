package org.sparknmt.prepare.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeLearner;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.common.vocab.WordCounts;
import org.sparknmt.testkit.BuildDirs;

/**
 * Losslessness over the whole Multi30k corpus: a joint en-de vocabulary of 8000 learned from the
 * training side, then decode(encode(s)) == s for every kept sentence of every file, English,
 * German and French (French is unseen by the vocabulary: its rare characters go through bytes).
 */
class Multi30kLosslessTest {
  /** The shared corpus beside the project: {@code <project>/../shared/data/multi30k}. */
  private static final Path CORPUS = BuildDirs.root().getParent().getParent().resolve("shared/data/multi30k");

  private static List<String> lines(String name) throws IOException {
    Path file = CORPUS.resolve(name);
    // the full corpus is optional beside a clone (CI has it); the shipped sample is tested elsewhere
    Assumptions.assumeTrue(Files.isRegularFile(file), "the Multi30k corpus is not at " + file + ": skipped");
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return List.of(text.split("\n"));
    }
  }

  @Test
  void everyKeptSentenceOfEveryLanguageRoundTrips() throws IOException {
    PairValidator validator = new PairValidator(250, 1500, 1e9);
    Map<String, List<String>> kept = new HashMap<>();
    for (String lang : List.of("en", "de", "fr")) {
      List<String> sentences = new ArrayList<>();
      for (String split : List.of("train", "val")) {
        for (String line : lines(split + "." + lang + ".gz")) {
          byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
          if (validator.validate(bytes, bytes) instanceof Verdict.Kept k) {
            sentences.add(k.source());
          }
        }
      }
      kept.put(lang, sentences);
    }
    Map<String, Long> counts = new HashMap<>();
    for (String lang : List.of("en", "de")) {
      for (String s : kept.get(lang).subList(0, 29000)) {
        for (String word : s.split(" ")) {
          counts.merge(word, 1L, Long::sum);
        }
      }
    }
    BpeModel model = BpeLearner.learn(WordCounts.of(counts), 8000, 0.9999);
    assertEquals(8000, model.size());
    BpeEncoder encoder = new BpeEncoder(model);
    long sentences = 0;
    long tokens = 0;
    for (Map.Entry<String, List<String>> language : kept.entrySet()) {
      assertTrue(language.getValue().size() > 30000 - 100, language.getKey() + " kept too few sentences");
      for (String s : language.getValue()) {
        int[] ids = encoder.encode(s);
        assertEquals(s, encoder.decode(ids), language.getKey());
        sentences++;
        tokens += ids.length;
      }
    }
    assertEquals(kept.values().stream().mapToInt(List::size).sum(), sentences);
    assertTrue(tokens < sentences * 40, "a learned vocabulary compresses: " + tokens + " tokens");
  }
}
