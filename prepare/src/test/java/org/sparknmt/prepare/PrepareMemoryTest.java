package org.sparknmt.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.ChildJvm;

/**
 * Prepare's driver memory does not grow with the distinct words of the corpus: 1,000,000 word types,
 * each seen once, prepare in a JVM of 512 MB heap (driver and local executors together), where a table
 * of every word on the driver, and BPE learned over it, would not fit.
 */
@Tag("slow")
class PrepareMemoryTest {
  private static final int PAIRS = 100_000;
  private static final int WORDS_PER_SIDE = 5;
  /** 26^5: every word is five letters, a distinct number below it. */
  private static final int SPACE = 26 * 26 * 26 * 26 * 26;
  private static final int MAX_WORDS = 200_000;

  @Test
  void aMillionOneOffWordsPrepareInA512MbHeap() throws Exception {
    Path dir = BuildDirs.fresh("prepare-memory");
    Path en = dir.resolve("train.en");
    Path de = dir.resolve("train.de");
    int word = 0;
    try (BufferedWriter src = Files.newBufferedWriter(en); BufferedWriter tgt = Files.newBufferedWriter(de)) {
      for (int line = 0; line < PAIRS; line++) {
        for (BufferedWriter side : List.of(src, tgt)) {
          for (int w = 0; w < WORDS_PER_SIDE; w++) {
            side.write(w == 0 ? "" : " ");
            side.write(word(word++));
          }
          side.write('\n');
        }
      }
    }

    Path log = dir.resolve("child.log");
    int exit = ChildJvm.run(SmallHeapPrepare.class, "512m", log, en.toString(), de.toString(),
        dir.resolve("run").toString(), dir.resolve("spark").toString());
    assertEquals(0, exit, "prepare in a 512 MB heap failed; the end of " + log + ":\n" + ChildJvm.tail(log));

    JsonNode manifest = new ObjectMapper().readTree(dir.resolve("run/data/manifest.json").toFile());
    assertEquals(PAIRS, manifest.get("counts").get("train").asLong());
    assertEquals(2L * PAIRS * WORDS_PER_SIDE, manifest.get("vocab").get("word_types").asLong());
    assertEquals(MAX_WORDS, manifest.get("vocab").get("word_types_learned_from").asInt());
  }

  /** Distinct for distinct {@code n} below 26^5: 7,919 is prime to 26, so the multiplication is a bijection. */
  private static String word(int n) {
    long scrambled = (long) n * 7_919 % SPACE;
    char[] letters = new char[5];
    for (int i = 0; i < letters.length; i++) {
      letters[i] = (char) ('a' + scrambled % 26);
      scrambled /= 26;
    }
    return new String(letters);
  }

  /** The child JVM: prepares {@code SRC TGT} into {@code RUN} on {@code local[2]}, with the defaults of data.*. */
  public static final class SmallHeapPrepare {
    public static void main(String[] args) throws IOException {
      SparkConf conf = ChildJvm.localSpark("PrepareMemoryTest", args[3]);
      PrepareConfig config = new PrepareConfig(8000, 0.9999, MAX_WORDS, 250, 1500, 9.0, 254, 4096, 0, 8, 8, 0.0, 17);
      try (JavaSparkContext sc = new JavaSparkContext(conf)) {
        PrepareJob.run(sc, new PrepareJob.Request(new CorpusInput.Aligned(args[0], args[1]), null, args[2], config,
            false, false));
      }
    }
  }
}
