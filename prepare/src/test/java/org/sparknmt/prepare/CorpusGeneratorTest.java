package org.sparknmt.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.SparkCluster;

/** scripts/make-corpus: the same seed gives the same bytes, and prepare rejects each bad class it writes. */
class CorpusGeneratorTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");
  private static final int BAD = 4;

  @Test
  void theSameSeedGivesTheSameBytesAndPrepareRejectsEveryBadClass() throws Exception {
    Path dir = BuildDirs.fresh("make-corpus");
    Path a = generate(dir.resolve("a"), 7);
    Path b = generate(dir.resolve("b"), 7);
    Path c = generate(dir.resolve("c"), 8);
    for (String file : List.of("train.src", "train.tgt")) {
      assertArrayEquals(Files.readAllBytes(a.resolve(file)), Files.readAllBytes(b.resolve(file)), file);
      assertFalse(Arrays.equals(Files.readAllBytes(a.resolve(file)), Files.readAllBytes(c.resolve(file))), file);
    }

    // prepare's defaults of data.*, as make-corpus sizes its bad lines for
    PrepareConfig config = new PrepareConfig(8000, 0.9999, 200_000, 250, 1500, 9.0, 254, 4096, 0, 2, 2, 0.0, 17);
    PrepareJob.Result result = PrepareJob.run(SPARK.sc(), new PrepareJob.Request(new CorpusInput.Aligned(
        a.resolve("train.src").toString(), a.resolve("train.tgt").toString()), null, dir.resolve("run").toString(),
        config, false, false));
    JsonNode counts = result.manifest().get("counts");
    JsonNode reasons = counts.get("rejected_by_reason");
    assertEquals(2000 + 7 * BAD, counts.get("read").asLong());
    for (String reason : List.of("invalid-utf8", "control-character", "empty-source", "empty-target", "too-long",
        "length-ratio")) {
      assertEquals(BAD, reasons.get(reason).asLong(), reason + " in " + reasons);
    }
    // and the longest good sentences, over max_subwords as long ones of real corpora are
    long overSubwords = reasons.get("too-many-subwords").asLong();
    assertTrue(overSubwords >= BAD && overSubwords < BAD + 40, reasons.toString());
    assertEquals(6 * BAD + overSubwords, counts.get("rejected").asLong());
  }

  private static Path generate(Path out, int seed) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("python3", projectRoot().resolve("scripts/make-corpus").toString(),
        "--pairs", "2000", "--bad-per-class", String.valueOf(BAD), "--seed", String.valueOf(seed),
        "--out", out.toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), output);
    return out;
  }

  private static Path projectRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("scripts/make-corpus"))) {
        return p;
      }
    }
    throw new IllegalStateException("no scripts/make-corpus above " + Path.of("").toAbsolutePath());
  }
}
