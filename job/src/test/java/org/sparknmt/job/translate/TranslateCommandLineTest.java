package org.sparknmt.job.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparknmt.job.CommandLineRun;
import org.sparknmt.job.cli.ExitCodes;
import org.sparknmt.testkit.BuildDirs;

/** Option errors of {@code sparknmt translate} and {@code sparknmt evaluate --run}: caught before Spark or a model starts. */
class TranslateCommandLineTest {
  private final CommandLineRun cli = new CommandLineRun();

  private int execute(String... args) {
    return cli.execute(args);
  }

  @Test
  void aFileInputNeedsAnOutputFile() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.en"));
    assertTrue(cli.err().contains("sparknmt translate: --input in.en needs --output URI"), cli.err());
  }

  @Test
  void standardInputWritesOnlyToStandardOutput() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--output", "out.de"));
    assertTrue(cli.err().contains("--output out.de: standard input is translated to standard output"), cli.err());
  }

  @Test
  void searchOptionsAreValidated() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--beam", "0"));
    assertTrue(cli.err().contains("beam must be at least 1, got 0"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--set", "translate.batch_size=0"));
    assertTrue(cli.err().contains("batch_size must be at least 1, got 0"), cli.err());
  }

  @Test
  void nonFiniteSearchNumbersAreUsageErrorsNamingTheOption() {
    for (String value : new String[] {"NaN", "Infinity", "-Infinity", "-1"}) {
      assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--length-penalty", value), cli.err());
      assertTrue(cli.err().contains("length_penalty (--length-penalty) must be a finite number at least 0, got "),
          cli.err());
      assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--max-len-a", value), cli.err());
      assertTrue(cli.err().contains("max_len_a (--max-len-a) must be a finite number at least 0, got "), cli.err());
    }
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--set", "translate.length_penalty=NaN"));
    assertTrue(cli.err().contains("length_penalty (--length-penalty) must be a finite number at least 0, got NaN"),
        cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--set", "translate.max_len_a=Infinity"));
    assertTrue(cli.err().contains("max_len_a (--max-len-a) must be a finite number at least 0, got Infinity"),
        cli.err());
  }

  @Test
  void aRunWithoutPreparedDataIsNamed() {
    String run = BuildDirs.fresh("translate-cli").resolve("run").toUri().toString();
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", run));
    assertTrue(cli.err().contains("manifest.json does not exist: run 'sparknmt prepare --run " + run), cli.err());
  }

  @Test
  void evaluateTakesEitherAHypothesisOrARunWithASource() {
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--ref", "ref.de"));
    assertTrue(cli.err().contains("give --hyp H --ref R, or --run RUN --src S --ref R"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--run", "runs/x", "--ref", "ref.de"));
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--run", "runs/x", "--src", "s.en", "--hyp", "h.de", "--ref", "ref.de"));
    assertTrue(cli.err().contains("a checkpoint evaluation takes --run RUN --src S --ref R (and no --hyp)"), cli.err());
  }
}
