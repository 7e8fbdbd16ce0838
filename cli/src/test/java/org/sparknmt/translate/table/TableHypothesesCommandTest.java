package org.sparknmt.translate.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.cli.CommandLineRun;
import org.sparknmt.cli.ExitCodes;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.prepare.PrepareJob;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.TinyRun;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.LineHypothesis;
import org.sparknmt.translate.Searches;
import org.sparknmt.translate.SentenceTranslator;
import org.sparknmt.translate.TranslationModel;

/**
 * {@code sparknmt translate --input-format parquet} end to end, as a user runs it in local mode: n-best lists,
 * alignments, samples and a prefix column in the output table, each against the driver's search with the values
 * the options name, so that an option mapped to the wrong param (or to none) fails here. An untrained checkpoint
 * of a tiny run: the search does not care whether the model learned anything. Slow: a prepare run and three
 * translate commands, each with its own Spark context.
 */
@Tag("slow")
class TableHypothesesCommandTest {
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType, false)
      .add("text", DataTypes.StringType, true).add("start", DataTypes.StringType, true);
  /** The search of the other table tests: short outputs keep an untrained model's searches cheap. */
  private static final List<String> SEARCH = List.of("--beam", "3", "--max-len-a", "0", "--max-len-b", "6",
      "--batch-size", "4");

  private static Path dir;
  private static String run;
  private static List<String> texts;
  private static List<String> prefixes;
  private static SparkSession spark;

  @BeforeAll
  static void prepare() throws IOException {
    dir = BuildDirs.fresh("table-hypotheses-command");
    texts = TinyRun.sample("valid.en.gz", 8);
    prefixes = Arrays.asList(null, "Ein Hund", "", "Zwei", null, "Der Mann", "Eine", null);
    Path corpus = Files.createDirectories(dir.resolve("corpus"));
    Files.write(corpus.resolve("train.en"), TinyRun.sample("train.en.gz", 200));
    Files.write(corpus.resolve("train.de"), TinyRun.sample("train.de.gz", 200));
    Files.write(corpus.resolve("valid.en"), TinyRun.sample("valid.en.gz", 20));
    Files.write(corpus.resolve("valid.de"), TinyRun.sample("valid.de.gz", 20));
    String uri = corpus.toUri().toString();
    run = dir.resolve("run").toUri().toString();
    SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("TableHypothesesCommandTest")
        .set("spark.ui.enabled", "false").set("spark.local.dir", dir.resolve("spark-local").toString());
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      PrepareJob.run(sc, new PrepareJob.Request(new CorpusInput.Aligned(uri + "train.en", uri + "train.de"),
          new CorpusInput.Aligned(uri + "valid.en", uri + "valid.de"), run,
          new PrepareConfig(400, 0.9995, 200_000, 80, 400, 9.0, 120, 384, 0, 2, 2, 0.0, 17), false, false));
      SparkSession session = SparkSession.builder().config(conf).getOrCreate();
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < texts.size(); i++) {
        rows.add(RowFactory.create((long) i, texts.get(i), prefixes.get(i)));
      }
      Dataset<Row> table = session.createDataFrame(rows, SCHEMA);
      table.repartition(1).write().parquet(table(1));
      table.repartition(3).write().parquet(table(3));
    }
    TinyRun.checkpoint(run, RunLayout.checkpointName(1), 1, 5, 2.0, new Configuration());
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static String table(int partitions) {
    return dir.resolve("table-" + partitions + ".parquet").toUri().toString();
  }

  /**
   * Runs {@code sparknmt translate} on the table of {@code partitions} partitions with the search above and
   * {@code options}; the output table's rows by id. The command stops its Spark context, so the output is read
   * in a session of the test's own, started after the commands.
   */
  private static Map<Long, Row> translate(String name, int partitions, String... options) {
    String output = dir.resolve(name + ".parquet").toUri().toString();
    List<String> args = new ArrayList<>(List.of("translate", "--master", "local[2]", "--run", run,
        "--checkpoint", "step-1", "--input", table(partitions), "--input-format", "parquet", "--column", "text",
        "--output-column", "german", "--output", output));
    args.addAll(SEARCH);
    args.addAll(List.of(options));
    CommandLineRun cli = new CommandLineRun();
    assertEquals(ExitCodes.OK, cli.execute(args.toArray(String[]::new)), cli.err());
    if (spark == null || spark.sparkContext().isStopped()) {
      spark = SparkSession.builder().master("local[1]").appName("TableHypothesesCommandTest")
          .config("spark.ui.enabled", "false").config("spark.local.dir", dir.resolve("spark-local").toString())
          .getOrCreate();
    }
    Map<Long, Row> byId = new HashMap<>();
    spark.read().parquet(output).collectAsList().forEach(row -> byId.put(row.getLong(0), row));
    assertEquals(texts.size(), byId.size(), name);
    return byId;
  }

  /** The driver's search of every text with the table's prefixes (null: none), rows seeded as a table's are. */
  private static List<List<LineHypothesis>> driver(HypothesesConfig wanted, boolean prefixed) throws IOException {
    SentenceTranslator search = TranslationModel.load(run, "step-1", new Configuration())
        .sentenceTranslator(Searches.search("translate.beam=3", "translate.max_len_a=0", "translate.max_len_b=6",
            "translate.batch_size=4"));
    long[] ids = texts.stream().mapToLong(RowTranslation::valueId).toArray();
    List<String> forced = prefixed ? prefixes.stream().map(p -> p == null ? "" : p).toList() : null;
    return search.hypotheses(texts, ids, forced, i -> "row " + i, wanted);
  }

  @Test
  void nbestAlignmentsAndPrefixesAreTheSearchsHypotheses() throws IOException {
    Map<Long, Row> listed = translate("nbest", 3, "--nbest", "3", "--alignments", "--alignments-column", "links",
        "--prefix-column", "start");
    List<List<LineHypothesis>> expected = driver(HypothesesConfig.stored(3, true, "none", 1.0, 0), true);
    List<List<LineHypothesis>> beam = driver(HypothesesConfig.stored(1, false, "none", 1.0, 0), true);

    boolean severalHypotheses = false;
    for (int i = 0; i < texts.size(); i++) {
      Row row = listed.get((long) i);
      assertEquals(List.of("id", "text", "start", "german", "links"), List.of(row.schema().fieldNames()));
      List<Row> hypotheses = row.getList(3);
      assertEquals(expected.get(i).size(), hypotheses.size(), "row " + i);
      severalHypotheses |= hypotheses.size() > 1;
      for (int h = 0; h < hypotheses.size(); h++) {
        String text = hypotheses.get(h).getString(0);
        assertEquals(expected.get(i).get(h).text(), text, "row " + i + ", hypothesis " + h);
        // the last digits of a score may differ with a batch's GEMMs
        assertEquals(expected.get(i).get(h).score(), hypotheses.get(h).getDouble(1), 1e-4, "row " + i);
        if (h > 0) {
          assertTrue(hypotheses.get(h - 1).getDouble(1) >= hypotheses.get(h).getDouble(1), "best first: " + row);
        }
        String prefix = prefixes.get(i);
        if (prefix != null && !prefix.isEmpty()) {
          assertTrue(text.startsWith(prefix), "row " + i + " starts with its prefix: " + row);
        }
      }
      assertEquals(beam.get(i).get(0).text(), hypotheses.get(0).getString(0), "row " + i + ": the best is the beam's");
      assertEquals(expected.get(i).get(0).alignment(), row.getString(4), "row " + i);
      assertPharaoh(texts.get(i), hypotheses.get(0).getString(0), row.getString(4));
    }
    assertTrue(severalHypotheses, "no row has more than one hypothesis: " + listed);
    List<List<LineHypothesis>> unprefixed = driver(HypothesesConfig.stored(3, true, "none", 1.0, 0), false);
    assertNotEquals(unprefixed.get(1).get(0).text(), expected.get(1).get(0).text(), "the prefix changes row 1");
  }

  /** Pharaoh pairs {@code s-t} of word indices within the source's and the translation's words, each once. */
  private static void assertPharaoh(String source, String translation, String alignment) {
    int sourceWords = source.trim().split(" +").length;
    int targetWords = translation.isEmpty() ? 0 : translation.split(" ").length;
    List<String> pairs = alignment.isEmpty() ? List.of() : List.of(alignment.split(" "));
    assertEquals(pairs.size(), pairs.stream().distinct().count(), alignment);
    boolean[] aligned = new boolean[targetWords];
    for (String pair : pairs) {
      assertTrue(pair.matches("\\d+-\\d+"), pair + " in " + alignment);
      int s = Integer.parseInt(pair.substring(0, pair.indexOf('-')));
      int t = Integer.parseInt(pair.substring(pair.indexOf('-') + 1));
      assertTrue(s < sourceWords && t < targetWords, pair + " outside " + sourceWords + "x" + targetWords);
      aligned[t] = true;
    }
    for (int t = 0; t < targetWords; t++) {
      assertTrue(aligned[t], "target word " + t + " of \"" + translation + "\" unaligned: " + alignment);
    }
  }

  @Test
  void aSeedsSamplesAreTheSameInAnyPartitioningAndStartWithTheirPrefixes() throws IOException {
    String[] sampling = {"--sample", "topk=20", "--temperature", "2.5", "--seed", "11", "--prefix-column", "start"};
    Map<Long, Row> one = translate("sampled-1", 1, sampling);
    Map<Long, Row> three = translate("sampled-3", 3, sampling);
    List<List<LineHypothesis>> expected = driver(HypothesesConfig.stored(1, false, "topk=20", 2.5, 11), true);

    for (int i = 0; i < texts.size(); i++) {
      String sample = one.get((long) i).getString(3);
      assertEquals(sample, three.get((long) i).getString(3), "row " + i + ": 1 and 3 partitions");
      assertEquals(expected.get(i).get(0).text(), sample, "row " + i);
      String prefix = prefixes.get(i);
      if (prefix != null && !prefix.isEmpty()) {
        assertTrue(sample.startsWith(prefix), "row " + i + " starts with its prefix: " + sample);
      }
    }
    // each value the options name changes the samples, so the comparison above sees a lost one
    List<String> drawn = texts(expected);
    assertNotEquals(drawn, texts(driver(HypothesesConfig.stored(1, false, "topk=20", 2.5, 0), true)), "seed");
    assertNotEquals(drawn, texts(driver(HypothesesConfig.stored(1, false, "topk=20", 1.0, 11), true)), "temperature");
    assertNotEquals(drawn, texts(driver(HypothesesConfig.stored(1, false, "topk=2", 2.5, 11), true)), "top-k");
    assertNotEquals(drawn, texts(driver(HypothesesConfig.stored(1, false, "none", 1.0, 0), true)), "beam");
  }

  private static List<String> texts(List<List<LineHypothesis>> hypotheses) {
    return hypotheses.stream().map(list -> list.get(0).text()).toList();
  }
}
