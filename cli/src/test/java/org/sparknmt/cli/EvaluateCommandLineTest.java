package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.EvaluationTest;
import org.sparknmt.testkit.BuildDirs;

/** {@code sparknmt evaluate} as a user runs it: options, exit codes, standard output and error, local mode. */
class EvaluateCommandLineTest {
  private final CommandLineRun cli = new CommandLineRun();

  private int execute(String... args) {
    return cli.execute(args);
  }

  @Test
  void hypAndRefAreRequired() {
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--hyp", "hyp.txt"));
    // --ref is not required by picocli: evaluate --table takes its reference from a column
    assertTrue(cli.err().contains("give --hyp H --ref R, or --run RUN --src S --ref R, or --table T"), cli.err());
  }

  @Test
  void scoresLocalFilesAndNamesAMissingOne() throws IOException {
    Path dir = BuildDirs.fresh("evaluate-cli");
    Path hyp = Files.write(dir.resolve("hyp.txt"), EvaluationTest.HYPS, StandardCharsets.UTF_8);
    Path ref = Files.write(dir.resolve("ref.txt"), EvaluationTest.REFS, StandardCharsets.UTF_8);

    assertEquals(ExitCodes.OK, execute("evaluate", "--master", "local[1]", "--hyp", hyp.toString(), "--ref", ref.toUri().toString()));
    assertEquals(List.of(EvaluationTest.SACREBLEU_BLEU, EvaluationTest.SACREBLEU_CHRF,
        "BLEU signature: " + Bleu.SIGNATURE, "chrF2 signature: " + Chrf.SIGNATURE), cli.out().lines().toList());

    String missing = dir.resolve("missing.txt").toUri().toString();
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--master", "local[1]", "--hyp", missing, "--ref", ref.toString()));
    assertTrue(cli.err().contains("sparknmt evaluate: --hyp " + missing + ": no such file"), cli.err());
  }

  @Test
  void inputsThatCannotBeScoredFailWithExitOne() throws IOException {
    Path dir = BuildDirs.fresh("evaluate-cli-short");
    Path hyp = Files.write(dir.resolve("hyp.txt"), EvaluationTest.HYPS.subList(0, 3), StandardCharsets.UTF_8);
    Path ref = Files.write(dir.resolve("ref.txt"), EvaluationTest.REFS, StandardCharsets.UTF_8);
    assertEquals(ExitCodes.FAILURE, execute("evaluate", "--master", "local[1]", "--hyp", hyp.toString(), "--ref", ref.toString()));
    assertTrue(cli.err().contains("hypothesis and reference differ in length"), cli.err());
  }
}
