package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparknmt.base.config.ConfigKeys;

/** {@code sparknmt config}, and the option help made from the key declarations. */
class ConfigCommandTest {
  private final CommandLineRun cli = new CommandLineRun();

  @Test
  void explainListsEveryKeyWithDescriptionAndDefault() {
    assertEquals(ExitCodes.OK, cli.execute("config", "--explain"), cli.err());
    String[] lines = cli.out().split("\n");
    assertEquals(ConfigKeys.all().size(), lines.length, cli.out());
    assertTrue(cli.out().contains("translate.beam: beam width: hypotheses kept per sentence; 1 = greedy search (default: 4)\n"),
        cli.out());
    assertTrue(cli.out().contains("train.lr_schedule: noam (paper Eq. 3: lr is the factor), inverse-sqrt (lr is the peak)"
        + " or constant (default: inverse-sqrt)\n"), cli.out());
    assertTrue(lines[0].startsWith("model.d_model: "), lines[0]);
    assertTrue(!cli.out().contains("current:"), "no configuration given, no current value: " + cli.out());
  }

  @Test
  void explainWithAConfigurationShowsTheEffectiveValues() {
    assertEquals(ExitCodes.OK, cli.execute("config", "--explain", "--set", "translate.beam=5"), cli.err());
    assertTrue(cli.out().contains("1 = greedy search (default: 4, current: 5)\n"), cli.out());
    assertTrue(cli.out().contains("model.d_model: d_model, the width of every sublayer's output; even, and divisible by heads"
        + " (default: 256, current: 256)\n"), cli.out());
  }

  @Test
  void explainAsMarkdownIsTheDocsTable() {
    assertEquals(ExitCodes.OK, cli.execute("config", "--explain", "--markdown"), cli.err());
    assertTrue(cli.out().startsWith("| key | default | meaning |\n| --- | --- | --- |\n| `model.d_model` | 256 | d_model,"),
        cli.out());
    assertTrue(cli.out().contains("\n| `train.outer.nesterov` | false | Nesterov momentum: the next round starts from the"
        + " look-ahead point |\n"), cli.out());
  }

  @Test
  void withoutExplainPrintsTheEffectiveConfiguration() {
    assertEquals(ExitCodes.OK, cli.execute("config", "--set", "model.layers=6"), cli.err());
    assertTrue(cli.out().contains("layers=6"), cli.out());
  }

  @Test
  void anOutOfRangeValueIsAUsageErrorNamingTheKey() {
    assertEquals(ExitCodes.USAGE, cli.execute("config", "--set", "translate.beam=0"));
    assertTrue(cli.err().contains("beam must be at least 1"), cli.err());
    assertEquals(ExitCodes.USAGE, new CommandLineRun().execute("config", "--explain", "--set", "train.lyers=1"));
  }

  @Test
  void markdownWithoutExplainIsAUsageError() {
    assertEquals(ExitCodes.USAGE, cli.execute("config", "--markdown"));
    assertTrue(cli.err().contains("--markdown goes with --explain"), cli.err());
  }

  @Test
  void anOptionThatOverridesAKeyShowsItsDescriptionAndDefaultInHelp() {
    assertEquals(ExitCodes.OK, cli.execute("translate", "--help"), cli.err());
    assertTrue(unwrapped(cli.out()).contains(unwrapped("--beam=N Beam width: hypotheses kept per sentence; 1 = greedy search."
        + " Overrides translate.beam (built-in default: 4).")), cli.out());
    assertTrue(unwrapped(cli.out()).contains(unwrapped("Overrides translate.partitions (built-in default: 0).")), cli.out());
    CommandLineRun prepare = new CommandLineRun();
    assertEquals(ExitCodes.OK, prepare.execute("prepare", "--help"), prepare.err());
    assertTrue(unwrapped(prepare.out()).contains(unwrapped("Overrides data.valid_fraction (built-in default: 0).")),
        prepare.out());
  }

  /** Help text without its whitespace: picocli wraps lines, also after the dot of a key. */
  private static String unwrapped(String text) {
    return text.replaceAll("\\s+", "");
  }
}
