package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.cli.CommandLineRun;
import org.sparknmt.cli.ExitCodes;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.model.decode.Shortlist;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.prepare.PrepareJob;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/**
 * {@code sparknmt shortlist} on a hand-checkable corpus, and translation with a shortlist: four English words
 * translated word by word, every German sentence starting with "ja".
 */
@Tag("slow")
class ShortlistJobTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  private static final String[] EN = {"cat", "dog", "bird", "house"};
  private static final String[] DE = {"Katze", "Hund", "Vogel", "Haus"};
  private static String run;

  /** Every sequence of one to three different words: each word is in 25 of the 40 pairs, "ja" in all. */
  @BeforeAll
  static void prepare() throws IOException {
    List<String> en = new ArrayList<>();
    List<String> de = new ArrayList<>();
    for (int a = 0; a < 4; a++) {
      en.add(EN[a]);
      de.add("ja " + DE[a]);
      for (int b = 0; b < 4; b++) {
        if (b == a) {
          continue;
        }
        en.add(EN[a] + " " + EN[b]);
        de.add("ja " + DE[a] + " " + DE[b]);
        for (int c = 0; c < 4; c++) {
          if (c != a && c != b) {
            en.add(EN[a] + " " + EN[b] + " " + EN[c]);
            de.add("ja " + DE[a] + " " + DE[b] + " " + DE[c]);
          }
        }
      }
    }
    java.nio.file.Path dir = BuildDirs.fresh("shortlist-job-test");
    Files.write(dir.resolve("train.en"), en, StandardCharsets.UTF_8);
    Files.write(dir.resolve("train.de"), de, StandardCharsets.UTF_8);
    Files.write(dir.resolve("valid.en"), en.subList(0, 5), StandardCharsets.UTF_8);
    Files.write(dir.resolve("valid.de"), de.subList(0, 5), StandardCharsets.UTF_8);
    run = dir.resolve("run").toUri().toString();
    String corpus = dir.toUri().toString();
    PrepareConfig config = new PrepareConfig(400, 1.0, 200_000, 80, 400, 9.0, 120, 384, 0, 1, 2, 0.0, 17);
    PrepareJob.run(SPARK.sc(), new PrepareJob.Request(new CorpusInput.Aligned(corpus + "train.en", corpus + "train.de"),
        new CorpusInput.Aligned(corpus + "valid.en", corpus + "valid.de"), run, config, false, false));
  }

  private static int token(BpeEncoder encoder, String word) {
    int[] ids = encoder.encode(word);
    assertEquals(1, ids.length, word + " is one subword of the vocabulary");
    return ids[0];
  }

  @Test
  void eachWordListsItsTranslationFirstThenTheWordInEveryTargetAndKeepsTheMostFrequent() throws IOException {
    ShortlistFile built = ShortlistJob.run(SPARK.sc(), run, 2, 1);
    PreparedData data = PreparedData.open(run, new Configuration());
    BpeEncoder encoder = new BpeEncoder(data.vocabulary());
    int ja = token(encoder, "ja");
    for (int i = 0; i < 4; i++) {
      // Dice: the translation 2·25/(25 + 25) = 1, "ja" 2·25/(25 + 40) ≈ 0.77, another word 2·14/(25 + 25) = 0.56
      assertArrayEquals(new int[] {token(encoder, DE[i]), ja}, built.shortlist().targets(token(encoder, EN[i])), EN[i]);
    }
    assertArrayEquals(new int[] {ja}, built.shortlist().always(), "the most frequent target token");
    assertEquals(data.vocabularySha256(), built.vocabularySha256());
    Path file = RunLayout.of(run).shortlist();
    built.write(file, new Configuration());
    ShortlistFile read = ShortlistFile.read(file, new Configuration());
    assertEquals(built.vocabularySha256(), read.vocabularySha256());
    assertEquals(2, read.top());
    assertEquals("dice", read.score());
    for (int s = 0; s < data.vocabulary().size(); s++) {
      assertArrayEquals(built.shortlist().targets(s), read.shortlist().targets(s), "source token " + s);
    }
    assertArrayEquals(built.shortlist().always(), read.shortlist().always());
  }

  @Test
  void translationWithTheWholeVocabularysShortlistIsPlainTranslationAndOtherVocabulariesAreRefused() throws IOException {
    Configuration hadoop = new Configuration();
    TinyRun.checkpoint(run, RunLayout.checkpointName(1), 1, 3, 1.0, hadoop);
    PreparedData data = PreparedData.open(run, hadoop);
    int vocab = data.vocabulary().size();
    Path whole = new Path(run, "whole.txt");
    new ShortlistFile(data.vocabularySha256(), "all", vocab, 0, Shortlist.whole(vocab)).write(whole, hadoop);
    TranslateConfig plain = Searches.search("translate.beam=3", "translate.max_len_b=6");
    TranslateConfig listed = plain.withShortlist(whole.toString());
    List<String> input = List.of("cat dog", "bird", "house cat bird");
    TranslationModel model = TranslationModel.load(run, "step-1", hadoop);
    assertEquals(model.sentenceTranslator(plain).translate(input),
        model.withShortlist(listed, run, hadoop).sentenceTranslator(listed).translate(input));

    Path other = new Path(run, "other.txt");
    String otherSha = "0".repeat(64);
    new ShortlistFile(otherSha, "all", vocab, 0, Shortlist.whole(vocab)).write(other, hadoop);
    UsageException e = assertThrows(UsageException.class,
        () -> model.withShortlist(plain.withShortlist(other.toString()), run, hadoop));
    assertTrue(e.getMessage().contains(otherSha) && e.getMessage().contains(data.vocabularySha256())
        && e.getMessage().contains("other.txt"), e.getMessage());
    UsageException missing = assertThrows(UsageException.class,
        () -> model.withShortlist(plain.withShortlist("run"), run + "-missing", hadoop));
    assertTrue(missing.getMessage().contains("shortlist/shortlist.txt does not exist"), missing.getMessage());
  }

  @Test
  void badOptionsAreUsageErrorsNamingThem() {
    CommandLineRun top = new CommandLineRun();
    assertEquals(ExitCodes.USAGE, top.execute("shortlist", "--run", run, "--top", "0"));
    assertTrue(top.err().contains("--top"), top.err());
    CommandLineRun frequent = new CommandLineRun();
    assertEquals(ExitCodes.USAGE, frequent.execute("shortlist", "--run", run, "--frequent", "-1"));
    assertTrue(frequent.err().contains("--frequent"), frequent.err());
  }
}
