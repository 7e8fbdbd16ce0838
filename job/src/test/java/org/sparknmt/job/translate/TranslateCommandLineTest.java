package org.sparknmt.job.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.sparknmt.job.Main;
import org.sparknmt.job.cli.ExitCodes;
import org.sparknmt.testkit.BuildDirs;
import picocli.CommandLine;

/** Option errors of {@code sparknmt translate} and {@code sparknmt evaluate --run}: caught before Spark or a model starts. */
class TranslateCommandLineTest {
  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine commandLine = Main.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter()));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void aFileInputNeedsAnOutputFile() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.en"));
    assertTrue(err.toString().contains("sparknmt translate: --input in.en needs --output URI"), err.toString());
  }

  @Test
  void standardInputWritesOnlyToStandardOutput() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--output", "out.de"));
    assertTrue(err.toString().contains("--output out.de: standard input is translated to standard output"), err.toString());
  }

  @Test
  void searchOptionsAreValidated() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--beam", "0"));
    assertTrue(err.toString().contains("beam must be at least 1, got 0"), err.toString());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--set", "translate.batch_size=0"));
    assertTrue(err.toString().contains("batch_size must be at least 1, got 0"), err.toString());
  }

  @Test
  void aRunWithoutPreparedDataIsNamed() {
    String run = BuildDirs.fresh("translate-cli").resolve("run").toUri().toString();
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", run));
    assertTrue(err.toString().contains("manifest.json does not exist: run 'sparknmt prepare --run " + run), err.toString());
  }

  @Test
  void evaluateTakesEitherAHypothesisOrARunWithASource() {
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--ref", "ref.de"));
    assertTrue(err.toString().contains("give --hyp H --ref R, or --run RUN --src S --ref R"), err.toString());
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--run", "runs/x", "--ref", "ref.de"));
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--run", "runs/x", "--src", "s.en", "--hyp", "h.de", "--ref", "ref.de"));
    assertTrue(err.toString().contains("a checkpoint evaluation takes --run RUN --src S --ref R (and no --hyp)"), err.toString());
  }
}
