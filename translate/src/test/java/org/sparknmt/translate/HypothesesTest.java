package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.testkit.TinyRun;

/**
 * n-best lists, samples and alignments of whole lines, with an untrained tiny model (no Spark): what the
 * search gives each piece of a line (tested against the full recomputation in the model's tests) put
 * together line by line and written in the output formats.
 */
class HypothesesTest {
  private static final BpeModel LETTERS = new BpeModel(IntStream.rangeClosed('a', 'z').toArray(), new int[0][], true);
  private static final List<String> LINES = List.of("ab cd", "", "efg h ij", "klm", "n op q");

  private static SentenceTranslator translator(String... keys) {
    return new SentenceTranslator(TrainedModel.translator(TransformerFactory.create(TinyRun.MODEL, LETTERS.size(), 4)),
        new BpeEncoder(LETTERS), Searches.search(keys), TinyRun.MODEL.maxLength());
  }

  private static HypothesesConfig wanted(int nbest, OutputFormat format, boolean alignments, String sample, long seed) {
    return HypothesesConfig.best().withOutputFormat(format).withNbest(nbest).withAlignments(alignments).withSample(sample)
        .withSeed(seed);
  }

  private static long[] ids(long from, int n) {
    return LongStream.range(from, from + n).toArray();
  }

  @Test
  void nbestListsStartWithTheTranslationAndAreBestFirst() {
    SentenceTranslator translator = translator("translate.beam=3", "translate.max_len_a=0", "translate.max_len_b=5");
    List<String> best = translator.translate(LINES);
    List<List<LineHypothesis>> nbest = translator.hypotheses(LINES, ids(0, LINES.size()), null,
        wanted(3, OutputFormat.FAIRSEQ, false, "none", 0));
    assertEquals(LINES.size(), nbest.size());
    for (int i = 0; i < LINES.size(); i++) {
      List<LineHypothesis> h = nbest.get(i);
      assertEquals(best.get(i), h.get(0).text(), "line " + i);
      for (int k = 1; k < h.size(); k++) {
        assertTrue(h.get(k - 1).score() >= h.get(k).score(), "best first: " + h);
      }
    }
    assertEquals(List.of(new LineHypothesis("", 0, null)), nbest.get(1), "an empty line gets one empty hypothesis");
    assertTrue(nbest.stream().anyMatch(h -> h.size() == 3), "a beam of 3 finishes 3 hypotheses: " + nbest);
  }

  @Test
  void formatsAreFairseqsLinesAndJsonLines() throws IOException {
    List<LineHypothesis> h = List.of(new LineHypothesis("ein Hund", -0.51234, "0-0 1-1"),
        new LineHypothesis("der \"Hund\"", -0.9, "1-1"));
    assertEquals("H-7\t-0.5123\tein Hund\nA-7\t0-0 1-1\nH-7\t-0.9000\tder \"Hund\"\nA-7\t1-1",
        OutputFormat.FAIRSEQ.format(7, h));
    JsonNode json = new ObjectMapper().readTree(OutputFormat.JSON.format(7, h));
    assertEquals(7, json.get("id").asLong());
    assertEquals("der \"Hund\"", json.get("hypotheses").get(1).get("text").asText());
    assertEquals(-0.51234, json.get("hypotheses").get(0).get("score").asDouble(), 0);
    assertEquals("0-0 1-1", json.get("hypotheses").get(0).get("alignment").asText());
    assertEquals("ein Hund", OutputFormat.TEXT.format(7, h));
    assertEquals("H-0\t-1.0000\tx", OutputFormat.FAIRSEQ.format(0, List.of(new LineHypothesis("x", -1, null))));
  }

  @Test
  void aLinesSampleDependsOnItsNumberAndTheSeedNotOnItsBlock() {
    SentenceTranslator translator = translator("translate.beam=1", "translate.max_len_a=0", "translate.max_len_b=6");
    HypothesesConfig sampling = wanted(1, OutputFormat.JSON, false, "topk=10", 5);
    List<List<LineHypothesis>> together = translator.hypotheses(LINES, ids(100, LINES.size()), null, sampling);
    List<List<LineHypothesis>> apart = new ArrayList<>();
    for (int i = LINES.size() - 1; i >= 0; i--) {
      apart.add(0, translator.hypotheses(List.of(LINES.get(i)), ids(100 + i, 1), null, sampling).get(0));
    }
    // the same draws; a batch's GEMMs may round the scores differently in the last bits
    assertEquals(texts(together), texts(apart), "each line alone, in reverse order");
    for (int i = 0; i < LINES.size(); i++) {
      assertEquals(together.get(i).get(0).score(), apart.get(i).get(0).score(), 1e-5);
    }
    List<List<LineHypothesis>> renumbered = translator.hypotheses(LINES, ids(200, LINES.size()), null, sampling);
    List<List<LineHypothesis>> reseeded = translator.hypotheses(LINES, ids(100, LINES.size()), null,
        wanted(1, OutputFormat.JSON, false, "topk=10", 6));
    assertTrue(!texts(together).equals(texts(renumbered)) && !texts(together).equals(texts(reseeded)),
        "other numbers or seeds draw other samples");
    List<List<LineHypothesis>> greedy = translator.hypotheses(LINES, ids(100, LINES.size()), null,
        wanted(1, OutputFormat.JSON, false, "topk=1", 5));
    assertEquals(translator.translate(LINES), texts(greedy), "top-1 is greedy");
  }

  private static List<String> texts(List<List<LineHypothesis>> lines) {
    return lines.stream().map(h -> h.get(0).text()).toList();
  }

  @Test
  void alignmentsPairWordsOfTheLineAndItsTranslation() {
    SentenceTranslator translator = translator("translate.beam=2", "translate.max_len_a=0", "translate.max_len_b=8");
    List<List<LineHypothesis>> aligned = translator.hypotheses(LINES, ids(0, LINES.size()), null,
        wanted(2, OutputFormat.FAIRSEQ, true, "none", 0));
    for (int i = 0; i < LINES.size(); i++) {
      int sourceWords = LINES.get(i).isEmpty() ? 0 : LINES.get(i).split(" ").length;
      for (LineHypothesis h : aligned.get(i)) {
        int targetWords = h.text().isEmpty() ? 0 : h.text().split(" ").length;
        List<Integer> targets = new ArrayList<>();
        for (String pair : h.alignment().isEmpty() ? new String[0] : h.alignment().split(" ")) {
          String[] st = pair.split("-");
          assertTrue(Integer.parseInt(st[0]) < sourceWords && Integer.parseInt(st[1]) < targetWords,
              pair + " of line " + i + " (" + LINES.get(i) + " -> " + h.text() + ")");
          targets.add(Integer.parseInt(st[1]));
        }
        // every target word has at least one subword, aligned to some source word when the source has a word
        assertEquals(sourceWords == 0 ? List.of() : IntStream.range(0, targetWords).boxed().toList(),
            targets.stream().distinct().toList(), "line " + i + ": " + h);
      }
    }
  }

  @Test
  void standardInputIsNumberedAcrossBlocks() throws IOException {
    SentenceTranslator translator = translator("translate.beam=2", "translate.max_len_a=0", "translate.max_len_b=4");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamTranslation.translate(new NumberedLines(translator, wanted(2, OutputFormat.FAIRSEQ, false, "none", 0), null),
        new ByteArrayInputStream("ab\ncd\n".getBytes(StandardCharsets.UTF_8)), out);
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertTrue(lines.stream().allMatch(l -> l.startsWith("H-0\t") || l.startsWith("H-1\t")), lines.toString());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("H-1\t")), lines.toString());
  }

  @Test
  void translationsStartWithTheirLinesPrefix() {
    SentenceTranslator translator = translator("translate.beam=2", "translate.max_len_a=0", "translate.max_len_b=3");
    List<String> prefixes = List.of("zz y", "x", "", "  q  r ", "yy");
    List<List<LineHypothesis>> prefixed = translator.hypotheses(LINES, ids(0, LINES.size()), prefixes,
        wanted(2, OutputFormat.JSON, false, "none", 0));
    List<List<LineHypothesis>> plain = translator.hypotheses(LINES, ids(0, LINES.size()), null,
        wanted(2, OutputFormat.JSON, false, "none", 0));
    String[] expected = {"zz y", null, null, "q r", "yy"};
    for (int i = 0; i < LINES.size(); i++) {
      for (LineHypothesis h : prefixed.get(i)) {
        if (expected[i] != null) {
          assertTrue(h.text().startsWith(expected[i]), "line " + i + ": " + h);
          assertTrue(h.text().length() > expected[i].length(), "the search goes on after the prefix: " + h);
        }
      }
    }
    assertEquals(plain.get(2), prefixed.get(2), "an empty prefix is none");
    assertEquals(List.of(new LineHypothesis("", 0, null)), prefixed.get(1), "an empty line stays empty");
    List<String> sampled = texts(translator.hypotheses(LINES, ids(0, LINES.size()), prefixes,
        wanted(1, OutputFormat.JSON, false, "topk=5", 1)));
    assertTrue(sampled.get(0).startsWith("zz y") && sampled.get(4).startsWith("yy"), sampled.toString());
  }

  @Test
  void aPrefixLongerThanTheModelAllowsIsAUsageErrorNamingItsLine() {
    SentenceTranslator translator = translator("translate.beam=2", "translate.max_len_a=0", "translate.max_len_b=3");
    String tooLong = "ab ".repeat(TinyRun.MODEL.maxLength());
    UsageException e = assertThrows(UsageException.class, () -> translator.hypotheses(LINES, ids(40, LINES.size()),
        List.of("", "", "", tooLong, ""), wanted(1, OutputFormat.TEXT, false, "none", 0)));
    assertTrue(e.getMessage().startsWith("--prefix (translate.prefix), line 44: "), e.getMessage());
  }

  @Test
  void aPrefixFileOfOtherLengthThanStandardInputIsAnErrorNamingFileAndLine(@TempDir Path dir)
      throws IOException {
    Path file = Files.write(dir.resolve("prefix.de"), List.of("x", "y"));
    SentenceTranslator translator = translator("translate.beam=1", "translate.max_len_a=0", "translate.max_len_b=3");
    HypothesesConfig wanted = wanted(1, OutputFormat.TEXT, false, "none", 0);
    IllegalArgumentException fewer = assertThrows(IllegalArgumentException.class, () -> StreamTranslation.translate(
        new NumberedLines(translator, wanted, TargetPrefixes.open(file.toString(), new Configuration())),
        new ByteArrayInputStream("ab\ncd\nef\n".getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream()));
    assertEquals("--prefix " + file + " has 2 lines, fewer than standard input: line 3 of standard input has no prefix",
        fewer.getMessage());
    TargetPrefixes prefixes = TargetPrefixes.open(file.toString(), new Configuration());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamTranslation.translate(new NumberedLines(translator, wanted, prefixes),
        new ByteArrayInputStream("ab\n".getBytes(StandardCharsets.UTF_8)), out);
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("x"), out.toString(StandardCharsets.UTF_8));
    IllegalArgumentException more = assertThrows(IllegalArgumentException.class, () -> prefixes.end("standard input"));
    assertEquals("--prefix " + file + " has more lines than standard input (1): line 2 of --prefix " + file
        + " has no input line", more.getMessage());
  }
}
