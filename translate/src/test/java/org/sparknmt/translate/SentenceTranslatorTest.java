package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.testkit.TinyRun;

/** Hostile input lines with an untrained tiny model: no Spark, no data, only the line rules. */
class SentenceTranslatorTest {
  /** Letters a-z and no merges. */
  private static final BpeModel LETTERS = new BpeModel(IntStream.rangeClosed('a', 'z').toArray(), new int[0][], true);
  /** Short outputs keep the untrained model's searches cheap (seed 4: its outputs are letters, not EOS at once). */
  private static final TranslateConfig SEARCH = Searches.search("translate.beam=1", "translate.length_penalty=0",
      "translate.max_len_a=0", "translate.max_len_b=4");

  private final SentenceTranslator translator = new SentenceTranslator(
      TrainedModel.translator(TransformerFactory.create(TinyRun.MODEL, LETTERS.size(), 4)),
      new BpeEncoder(LETTERS), SEARCH, TinyRun.MODEL.maxLength());

  @Test
  void aMegabyteLineWithoutASpaceIsTranslatedInSecondsKeepingTheLineCount() {
    String huge = "x".repeat(1 << 20);
    long start = System.nanoTime();
    List<String> out = assertTimeoutPreemptively(Duration.ofSeconds(30),
        () -> translator.translate(List.of("ab", huge, "cd")));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(3, out.size());
    assertFalse(out.get(1).isEmpty(), "the capped line still gets a translation");
    int pieceLimit = TinyRun.MODEL.maxLength() - 1;
    int subwords = 1 + LongSentences.maxChars(pieceLimit); // "\u2581" and one per x kept
    assertEquals((subwords + pieceLimit - 1) / pieceLimit, out.get(1).split(" ").length,
        "the first maxChars characters in pieces of " + pieceLimit + " subwords: " + out.get(1));
    assertTrue(seconds < 10, "took " + seconds + " s");
  }

  @Test
  void aCapNeverSplitsASurrogatePair() {
    String line = "a".repeat(9) + "\uD83D\uDE00";
    assertEquals("a".repeat(9), LongSentences.capped(line, 10));
    assertEquals(line, LongSentences.capped(line, 11));
  }

  @Test
  void onStandardInputOnlyLineFeedsEndLines() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamTranslation.translate(translator, new ByteArrayInputStream("ab\rcd\nef\r\ngh".getBytes(StandardCharsets.UTF_8)),
        out);
    assertEquals(translator.translate(List.of("ab\rcd", "ef", "gh")), out.toString(StandardCharsets.UTF_8).lines().toList());
  }

  @Test
  void invalidUtf8OnStandardInputIsAnErrorNamingTheLineAfterTheLinesBeforeIt() {
    byte[] input = {'a', 'b', '\n', 'c', 'd', (byte) 0xC3, '(', '\n', 'e', '\n'};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    IOException e = assertThrows(IOException.class,
        () -> StreamTranslation.translate(translator, new ByteArrayInputStream(input), out));
    assertEquals("standard input, line 2: not valid UTF-8 (byte 3 of the line, 0xC3)", e.getMessage());
    assertEquals(translator.translate(List.of("ab")), out.toString(StandardCharsets.UTF_8).lines().toList());
  }
}
