package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.table.TranslationTransformer;

/**
 * Option errors of {@code sparknmt translate --input-format} and {@code evaluate --table}: usage errors
 * (exit 2) before Spark or a model starts.
 */
class TranslateTableOptionsTest {
  private final CommandLineRun cli = new CommandLineRun();

  private int execute(String... args) {
    return cli.execute(args);
  }

  private int translate(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "translate";
    all[1] = "--run";
    all[2] = "runs/x";
    System.arraycopy(args, 0, all, 3, args.length);
    return execute(all);
  }

  private void assertUsageError(String message, String... args) {
    assertEquals(ExitCodes.USAGE, translate(args), cli.err());
    assertTrue(cli.err().contains(message), cli.err());
  }

  @Test
  void aTableNeedsAColumnAndFiles() {
    assertUsageError("--input-format parquet needs --column NAME (the column to translate)",
        "--input", "t.parquet", "--output", "o.parquet", "--input-format", "parquet");
    assertUsageError("--input-format orc needs --input URI and --output URI (tables)",
        "--input-format", "ORC", "--column", "en");
  }

  @Test
  void formatsAreNamed() {
    assertUsageError("--input-format xml: expected text or one of the table formats parquet, orc, json, csv, tsv",
        "--input", "t.xml", "--output", "o", "--input-format", "xml", "--column", "en");
    assertUsageError("--output-format avro: expected text or one of the table formats",
        "--input", "t.csv", "--output", "o", "--input-format", "csv", "--column", "en", "--output-format", "avro");
  }

  @Test
  void evaluatesTableFormTakesNoFiles() {
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--table", "t.parquet", "--ref", "ref.de"));
    assertTrue(cli.err().contains("--table T --hyp-column H --ref-column R scores two columns of one table: "
        + "no --hyp, --ref, --run or --src"), cli.err());
    assertEquals(ExitCodes.USAGE, execute("evaluate", "--hyp", "hyp.de"));
    assertTrue(cli.err().contains("or --table T --hyp-column H --ref-column R"), cli.err());
  }

  @Test
  void tableOptionsNeedATableInput() {
    assertUsageError("--column is for a table input: give --input-format parquet|orc|json|csv|tsv",
        "--input", "in.en", "--output", "out.de", "--column", "en");
    assertUsageError("--output-format parquet: a text input's translations are written as text, fairseq or json (a "
        + "table's formats need --input-format parquet|orc|json|csv|tsv)",
        "--input", "in.en", "--output", "out.de", "--output-format", "parquet");
  }

  @Test
  void aTablesHypothesisOptionsBecomeTheTransformersParams() {
    TableOptions options = new TableOptions();
    options.prefixColumn = "start";
    options.alignmentsColumn = "links";
    TranslationTransformer t = options.withHypotheses(new TranslationTransformer(),
        HypothesesConfig.stored(3, true, "none", 1.0, 0).withTemperature(0.7).withSeed(9));
    assertEquals(3, t.getOrDefault(t.nbest()));
    assertEquals("links", t.getOrDefault(t.alignmentsCol()));
    assertEquals("start", t.getOrDefault(t.prefixCol()));
    assertEquals(0.7, t.getOrDefault(t.temperature()));
    assertEquals(9L, t.getOrDefault(t.seed()));
    TranslationTransformer sampled = new TableOptions().withHypotheses(new TranslationTransformer(),
        HypothesesConfig.stored(1, false, "topk=7", 1.0, 0));
    assertEquals(7, sampled.getOrDefault(sampled.sampleTopK()));
    assertEquals(0, sampled.getOrDefault(sampled.nbest()), "one best: a string column");
    assertEquals("", sampled.getOrDefault(sampled.alignmentsCol()));
    assertEquals("", sampled.getOrDefault(sampled.prefixCol()));
    TranslationTransformer nucleus = new TableOptions().withHypotheses(new TranslationTransformer(),
        HypothesesConfig.stored(1, false, "topp=0.8", 1.0, 0));
    assertEquals(0.8, nucleus.getOrDefault(nucleus.sampleTopP()));
    assertEquals(0, nucleus.getOrDefault(nucleus.sampleTopK()));
  }
}
