package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
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
  void hypothesisOptionsAreValidatedNamingThem() {
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--beam", "4", "--nbest", "5",
        "--output-format", "fairseq"));
    assertTrue(cli.err().contains("nbest (--nbest) 5 is more than the beam (--beam) 4"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--nbest", "2"));
    assertTrue(cli.err().contains("nbest (--nbest) 2 needs output_format (--output-format) fairseq or json"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--alignments"));
    assertTrue(cli.err().contains("alignments (--alignments) needs output_format (--output-format)"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--output-format", "xml"));
    assertTrue(cli.err().contains("--output-format xml: a text input's translations are written as text, fairseq or json"),
        cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--sample", "topk=0"));
    assertTrue(cli.err().contains("sample (--sample) topk=0: sampling takes either top-k with k >= 1"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--sample", "beam"));
    assertTrue(cli.err().contains("sample (--sample) must be none, topk=K (K >= 1) or topp=P (0 < P <= 1), got beam"),
        cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--sample", "topp=0.9", "--temperature", "0"));
    assertTrue(cli.err().contains("temperature (--temperature) must be positive and finite, got 0.0"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--sample", "topp=0.9", "--nbest", "2",
        "--output-format", "json"));
    assertTrue(cli.err().contains("draws one translation per line: nbest (--nbest) 2 is for beam search"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--set", "translate.nbest=0"));
    assertTrue(cli.err().contains("nbest (--nbest) must be at least 1, got 0"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.parquet", "--output", "out",
        "--input-format", "parquet", "--column", "text", "--nbest", "5", "--output-format", "json"));
    assertTrue(cli.err().contains("nbest (--nbest) 5 is more than the beam (--beam) 4"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.parquet", "--output", "out",
        "--input-format", "parquet", "--column", "text", "--prefix", "prefix.de"));
    assertTrue(cli.err().contains("a table's prefixes come from a column, --prefix-column NAME"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.en", "--output", "out",
        "--prefix-column", "p"));
    assertTrue(cli.err().contains("--prefix-column is for a table input"), cli.err());
    String missing = BuildDirs.fresh("translate-cli-prefix").resolve("nothing.de").toString();
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--prefix", missing));
    assertTrue(cli.err().contains("--prefix (translate.prefix) " + missing + ": no such file"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("translate", "--run", "runs/x", "--input", "in.parquet", "--output", "out",
        "--input-format", "parquet", "--column", "text", "--checkpoint", "step-10", "--checkpoint", "best"));
    assertTrue(cli.err().contains("--checkpoint is given 2 times (step-10, best): only a text input's translate takes an"
        + " ensemble"), cli.err());
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
