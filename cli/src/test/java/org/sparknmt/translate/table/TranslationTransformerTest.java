package org.sparknmt.translate.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.evaluate.EvaluateJob;
import org.sparknmt.evaluate.table.TableEvaluation;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.LineHypothesis;
import org.sparknmt.translate.Searches;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;

/**
 * The DataFrame path on a real HDFS and a local-cluster with two executor JVMs: a Parquet table with
 * ids, nulls, empty strings and an over-long value against the text path's translations of the same
 * sentences, with an untrained checkpoint of a tiny prepared run. Slow: a prepare run.
 */
@Tag("slow")
class TranslationTransformerTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  private static final StructType SCHEMA = new StructType()
      .add("id", DataTypes.LongType, false)
      .add("text", DataTypes.StringType, true)
      .add("score", DataTypes.IntegerType, false);
  private static String run;
  private static SparkSession spark;
  private static Dataset<Row> table;
  private static Map<Long, String> sources;

  @BeforeAll
  static void prepare() throws IOException {
    run = TinyRun.prepare(SPARK.sc(), HDFS, "tiny-ml", 400);
    TinyRun.checkpoint(run, RunLayout.checkpointName(10), 10, 1, 3.0, new Configuration());
    spark = SparkSession.builder().config(SPARK.sc().getConf()).getOrCreate();
    List<String> texts = new ArrayList<>(TinyRun.sample("valid.en.gz", 20));
    texts.add(3, null);
    texts.add(5, "");
    texts.add(8, "   ");
    texts.add(11, String.join(" ", texts.subList(12, 19)));
    texts.add(null);
    List<Row> rows = new ArrayList<>();
    sources = new HashMap<>();
    for (int i = 0; i < texts.size(); i++) {
      long id = 1000L + 7 * i;
      rows.add(RowFactory.create(id, texts.get(i), i * i));
      sources.put(id, texts.get(i));
    }
    String parquet = HDFS.path("/ml/table.parquet");
    spark.createDataFrame(rows, SCHEMA).repartition(3).write().parquet(parquet);
    table = spark.read().parquet(parquet);
  }

  /** The search of TranslateJobTest: short outputs keep an untrained model's searches cheap. */
  private static TranslationTransformer translation() {
    return new TranslationTransformer().setCheckpoint(run, "step-10").setInputCol("text").setOutputCol("german")
        .setBeam(2).setLengthPenalty(0.6).setMaxLenA(0.0).setMaxLenB(6).setBatchSize(4);
  }

  @Test
  void aParquetTableKeepsItsRowsColumnsAndOrderAndMatchesTheTextPath() throws IOException {
    TranslationTransformer translation = translation();
    assertEquals(Searches.search("translate.beam=2", "translate.max_len_a=0",
        "translate.max_len_b=6", "translate.batch_size=4"), translation.searchConfig());
    List<Row> input = table.collectAsList();
    Dataset<Row> translated = translation.transform(table);
    List<Row> output = translated.collectAsList();

    assertEquals(List.of("id", "text", "score", "german"), List.of(translated.schema().fieldNames()));
    assertEquals(input.size(), output.size());
    assertEquals(table.rdd().getNumPartitions(), translated.rdd().getNumPartitions());
    Map<Long, String> expected = textPath();
    for (int i = 0; i < input.size(); i++) {
      Row in = input.get(i);
      Row out = output.get(i);
      assertEquals(in.getLong(0), out.getLong(0), "row " + i + ": the partition's order");
      assertEquals(in.get(1), out.get(1), "row " + i);
      assertEquals(in.getInt(2), out.getInt(2), "row " + i);
      String source = in.getString(1);
      if (source == null) {
        assertNull(out.get(3), "row " + i + ": null gives null");
      } else {
        assertEquals(expected.get(in.getLong(0)), out.getString(3), "row " + i + ": \"" + source + "\"");
        assertEquals(source.isBlank(), out.getString(3).isEmpty(), "row " + i + ": \"" + source + "\"");
      }
    }
    assertTrue(output.stream().map(row -> row.get(3)).distinct().count() > 5, "outputs too alike to show the order");
  }

  /** The text path (sparknmt translate on a file) on the table's non-null sources, by id. */
  private static Map<Long, String> textPath() throws IOException {
    List<Long> ids = sources.keySet().stream().filter(id -> sources.get(id) != null).sorted().toList();
    String in = TinyRun.write(HDFS, "/ml/text/input.en", ids.stream().map(sources::get).toList(), false);
    String out = HDFS.path("/ml/text/output.de");
    TranslationModel model = TranslationModel.load(run, "step-10", new Configuration());
    TranslateJob.run(SPARK.sc(), model, Searches.search("translate.beam=2", "translate.max_len_a=0",
        "translate.max_len_b=6", "translate.batch_size=4", "translate.partitions=2"), in, out, true);
    List<String> lines = TinyRun.read(out, new Configuration());
    Map<Long, String> byId = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      byId.put(ids.get(i), lines.get(i));
    }
    assertFalse(byId.get(1000L + 7 * 11).isEmpty(), "the over-long value is translated in pieces");
    return byId;
  }

  @Test
  void theCommandsTablePathKeepsEveryColumnFromTsvToJson() {
    String tsv = HDFS.path("/ml/table.tsv");
    TableFormat.TSV.write(table, tsv, false);
    String json = HDFS.path("/ml/translated.json");

    TableTranslation.Result result = TableTranslation.run(spark, translation(), tsv, TableFormat.TSV, json,
        TableFormat.JSON, false);

    assertEquals(sources.size(), result.rows());
    Map<String, String> expected = new HashMap<>();
    translation().transform(table).collectAsList()
        .forEach(row -> expected.put(String.valueOf(row.getLong(0)), row.getString(3)));
    List<Row> written = TableFormat.JSON.read(spark, json).select("id", "text", "score", "german").collectAsList();
    assertEquals(sources.size(), written.size());
    for (Row row : written) {
      long id = Long.parseLong(row.getString(0));
      // Spark's CSV reader reads an empty value as null (TableFormat says so); blanks survive
      boolean empty = sources.get(id) == null || sources.get(id).isEmpty();
      assertEquals(empty ? null : sources.get(id), row.getString(1), "id " + id);
      assertEquals(empty ? null : expected.get(row.getString(0)), row.getString(3), "id " + id);
      assertEquals(String.valueOf((id - 1000) / 7 * ((id - 1000) / 7)), row.getString(2), "id " + id);
    }
    Exception exists = assertThrows(Exception.class,
        () -> TableTranslation.run(spark, translation(), tsv, TableFormat.TSV, json, TableFormat.JSON, false));
    assertTrue(exists.getMessage().contains(json) && exists.getMessage().contains("already exists"),
        exists.getMessage());
    assertEquals(sources.size(),
        TableTranslation.run(spark, translation(), tsv, TableFormat.TSV, json, TableFormat.JSON, true).rows());
  }

  @Test
  void evaluateScoresTwoColumnsOfATableAsItScoresTwoFiles() throws IOException {
    List<String> refs = TinyRun.sample("valid.de.gz", 12);
    List<Row> rows = new ArrayList<>();
    List<String> hyps = new ArrayList<>();
    for (int i = 0; i < refs.size(); i++) {
      // a hypothesis that is the reference with its first word dropped, except a null and an exact one
      String hyp = i == 4 ? null : i == 7 ? refs.get(i) : refs.get(i).substring(refs.get(i).indexOf(' ') + 1);
      hyps.add(hyp == null ? "" : hyp);
      rows.add(RowFactory.create((long) i, hyp, refs.get(i)));
    }
    StructType schema = new StructType().add("id", DataTypes.LongType).add("translation", DataTypes.StringType)
        .add("de", DataTypes.StringType);
    String uri = HDFS.path("/ml/eval.parquet");
    spark.createDataFrame(rows, schema).repartition(3).write().parquet(uri);

    Evaluation table = TableEvaluation.run(spark, uri, TableFormat.PARQUET, "translation", "de");
    Evaluation files = EvaluateJob.run(SPARK.sc(), TinyRun.write(HDFS, "/ml/eval/hyp.de", hyps, false),
        TinyRun.write(HDFS, "/ml/eval/ref.de", refs, false));

    assertEquals(refs.size(), table.lines());
    assertEquals(files.bleu().score(), table.bleu().score());
    assertArrayEquals(files.bleu().counts(), table.bleu().counts());
    assertArrayEquals(files.bleu().totals(), table.bleu().totals());
    assertEquals(files.bleu().sysLen(), table.bleu().sysLen());
    assertEquals(files.chrf().score(), table.chrf().score());
    assertTrue(table.bleu().score() > 10 && table.bleu().score() < 100, table.bleu().toString());
    IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
        () -> TableEvaluation.run(spark, uri, TableFormat.PARQUET, "translation", "id"));
    assertTrue(number.getMessage().startsWith("--ref-column \"id\" is a column of type bigint, not string"),
        number.getMessage());
  }

  @Test
  void aMissingOrNonStringColumnIsAnErrorNamingIt() {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> translation().setInputCol("english").transform(table));
    assertEquals("inputCol \"english\": no such column; the columns are [id, text, score]", missing.getMessage());
    IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
        () -> translation().setInputCol("score").transform(table));
    assertTrue(number.getMessage().startsWith("inputCol \"score\" is a column of type int, not string"),
        number.getMessage());
    IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
        () -> translation().setOutputCol("id").transform(table));
    assertTrue(taken.getMessage().startsWith("outputCol \"id\" already exists"), taken.getMessage());
    IllegalArgumentException noRun = assertThrows(IllegalArgumentException.class,
        () -> new TranslationTransformer().setInputCol("text").transform(table));
    assertTrue(noRun.getMessage().startsWith("run is not set"), noRun.getMessage());
    assertThrows(IllegalArgumentException.class, () -> translation().setBeam(0));
  }

  @Test
  void aSavedPipelineLoadsAndGivesTheSameOutput() throws IOException {
    PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {translation()}).fit(table);
    String path = HDFS.path("/ml/pipeline");
    fitted.write().overwrite().save(path);
    PipelineModel loaded = PipelineModel.load(path);

    TranslationTransformer stage = (TranslationTransformer) loaded.stages()[0];
    assertEquals(translation().searchConfig(), stage.searchConfig());
    assertEquals(run, stage.getOrDefault(stage.run()));
    assertEquals(fitted.transform(table).collectAsList(), loaded.transform(table).collectAsList());
    String saved = HDFS.path("/ml/transformer");
    stage.save(saved);
    assertEquals("german", TranslationTransformer.load(saved).getOutputCol());
  }

  @Test
  void prefixColAndEnsembleParamsSearchAsTheTextPathDoes() throws IOException {
    TinyRun.checkpoint(run, RunLayout.checkpointName(20), 20, 2, 4.0, new Configuration());
    List<String> texts = TinyRun.sample("valid.en.gz", 6);
    List<String> prefixes = Arrays.asList("Ein", null, "", "Zwei Hunde", "Ein", "Der");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      rows.add(RowFactory.create((long) i, texts.get(i), prefixes.get(i)));
    }
    StructType schema = new StructType().add("id", DataTypes.LongType, false).add("text", DataTypes.StringType, true)
        .add("start", DataTypes.StringType, true);
    Dataset<Row> prefixed = spark.createDataFrame(rows, schema).repartition(2);
    List<Row> out = translation().setEnsemble("step-20").setPrefixCol("start").transform(prefixed).collectAsList();
    TranslationModel both = TranslationModel.load(run, List.of("step-10", "step-20"), new Configuration());
    List<List<LineHypothesis>> expected = both.sentenceTranslator(Searches.search(
        "translate.beam=2", "translate.max_len_a=0", "translate.max_len_b=6", "translate.batch_size=4"))
        .hypotheses(texts, new long[texts.size()], prefixes.stream().map(p -> p == null ? "" : p).toList(),
            HypothesesConfig.best());
    assertEquals(texts.size(), out.size());
    for (Row row : out) {
      int i = (int) row.getLong(0);
      assertEquals(expected.get(i).get(0).text(), row.getString(3), "row " + i);
      if (prefixes.get(i) != null && !prefixes.get(i).isEmpty()) {
        assertTrue(row.getString(3).startsWith(prefixes.get(i)), "row " + i + ": " + row);
      }
    }
    assertThrows(UsageException.class, () -> translation().setPrefixCol("nothing").transform(prefixed));
  }

  /** Six sentences (one blank, one null) with ids, in {@code partitions} partitions. */
  private static Dataset<Row> sentences(int partitions) throws IOException {
    List<String> texts = new ArrayList<>(TinyRun.sample("valid.en.gz", 4));
    texts.add(2, " ");
    texts.add(null);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      rows.add(RowFactory.create((long) i, texts.get(i)));
    }
    StructType schema = new StructType().add("id", DataTypes.LongType, false).add("text", DataTypes.StringType, true);
    return spark.createDataFrame(rows, schema).repartition(partitions);
  }

  @Test
  void nbestAndAlignmentsColAreTheTextPathsHypothesesBestFirst() throws IOException {
    TranslationTransformer translation = translation().setNbest(2).setAlignmentsCol("alignment");
    Dataset<Row> input = sentences(3);
    Dataset<Row> translated = translation.transform(input);
    StructType hypothesis = new StructType().add("text", DataTypes.StringType, false)
        .add("score", DataTypes.DoubleType, false);
    StructType expectedSchema = input.schema().add("german", DataTypes.createArrayType(hypothesis, false), true)
        .add("alignment", DataTypes.StringType, true);
    assertEquals(expectedSchema, translation.transformSchema(input.schema()));
    assertEquals(expectedSchema, translated.schema());

    List<Row> out = translated.collectAsList();
    List<String> texts = out.stream().filter(row -> !row.isNullAt(1)).map(row -> row.getString(1)).toList();
    List<List<LineHypothesis>> expected = TranslationModel.load(run, "step-10", new Configuration())
        .sentenceTranslator(translation.searchConfig())
        .hypotheses(texts, new long[texts.size()], null, HypothesesConfig.stored(2, true, "none", 1.0, 0));
    int searched = 0;
    for (Row row : out) {
      if (row.isNullAt(1)) {
        assertNull(row.get(2), "null gives null: " + row);
        assertNull(row.get(3), "null gives null: " + row);
        continue;
      }
      List<LineHypothesis> hypotheses = expected.get(searched++);
      List<Row> list = row.getList(2);
      assertEquals(hypotheses.size(), list.size(), row.toString());
      for (int h = 0; h < list.size(); h++) {
        assertEquals(hypotheses.get(h).text(), list.get(h).getString(0), row + " hypothesis " + h);
        // the last digits of a score may differ with a batch's GEMMs
        assertEquals(hypotheses.get(h).score(), list.get(h).getDouble(1), 1e-4, row + " hypothesis " + h);
        if (h > 0) {
          assertTrue(list.get(h - 1).getDouble(1) >= list.get(h).getDouble(1), "best first: " + row);
        }
      }
      assertEquals(hypotheses.get(0).alignment(), row.getString(3), row.toString());
      assertEquals(row.getString(1).isBlank(), row.getString(3).isEmpty(), row.toString());
    }
    assertTrue(out.stream().anyMatch(row -> !row.isNullAt(2) && row.getList(2).size() == 2), "no 2-best list");

    UsageException longer = assertThrows(UsageException.class, () -> translation().setNbest(3).transform(input));
    assertTrue(longer.getMessage().startsWith("nbest (--nbest) 3 is more than the beam (--beam) 2"),
        longer.getMessage());
    UsageException taken = assertThrows(UsageException.class,
        () -> translation().setAlignmentsCol("id").transformSchema(input.schema()));
    assertTrue(taken.getMessage().startsWith("alignmentsCol \"id\" already exists"), taken.getMessage());
  }

  @Test
  void aRowsSampleDependsOnTheSeedNotThePartitioning() throws IOException {
    TranslationTransformer sampling = translation().setSampleTopK(10).setTemperature(1.5).setSeed(7);
    Map<Long, Object> one = byId(sampling.transform(sentences(1)));
    Map<Long, Object> three = byId(sampling.transform(sentences(3)));
    assertEquals(one, three);
    boolean otherSamples = false;
    for (long seed = 8; seed < 11 && !otherSamples; seed++) {
      otherSamples = !one.equals(byId(translation().setSampleTopK(10).setTemperature(1.5).setSeed(seed)
          .transform(sentences(3))));
    }
    assertTrue(otherSamples, "other seeds drew the same samples: " + one);
    assertEquals(byId(translation().setBeam(1).transform(sentences(2))),
        byId(translation().setSampleTopK(1).transform(sentences(3))), "top-k 1 is greedy search");

    UsageException both = assertThrows(UsageException.class,
        () -> translation().setSampleTopK(10).setSampleTopP(0.9).transform(sentences(1)));
    assertTrue(both.getMessage().startsWith("sampleTopK 10 and sampleTopP 0.9 are both set"), both.getMessage());
    assertThrows(IllegalArgumentException.class, () -> translation().setTemperature(0));
  }

  /** Each row's translation by id. */
  private static Map<Long, Object> byId(Dataset<Row> translated) {
    Map<Long, Object> out = new HashMap<>();
    translated.collectAsList().forEach(row -> out.put(row.getLong(0), row.get(2)));
    return out;
  }

  @Test
  void aTooLongPrefixNamesThePrefixColAndItsRow() throws IOException {
    String text = TinyRun.sample("valid.en.gz", 1).get(0);
    StructType schema = new StructType().add("text", DataTypes.StringType).add("start", DataTypes.StringType);
    Dataset<Row> rows = spark.createDataFrame(List.of(RowFactory.create(text, "Ein Hund ".repeat(200))), schema);

    Exception failed = assertThrows(Exception.class,
        () -> translation().setPrefixCol("start").transform(rows).collectAsList());
    String message = failed.getMessage();
    assertTrue(message.contains("prefixCol \"start\", the row whose inputCol \"text\" is \"" + text.substring(0, 20)),
        message);
    assertTrue(message.contains("the model's positions leave"), message);
    assertFalse(message.contains("--prefix"), message);
  }

  @Test
  void explainParamsListsEveryParamWithItsDefault() {
    String explained = new TranslationTransformer().explainParams();
    for (String line : List.of("beam: beam width; 1 = greedy search (>= 1) (default: 4)",
        "batchSize: sentences searched together, after sorting a block by length (>= 1) (default: 128)",
        "lengthPenalty: GNMT length penalty alpha; 0 = raw log-probability (>= 0) (default: 0.6)",
        "checkpoint: checkpoint of the run", "inputCol: string column to translate", "run: run directory URI",
        "nbest: the n best translations", "(>= 0) (default: 0)", "alignmentsCol: string column to append",
        "sampleTopK: sample each translation", "temperature: sampling temperature: the logits are divided by it (> 0) "
            + "(default: 1.0)", "seed: sampling seed")) {
      assertTrue(explained.contains(line), line + " not in:\n" + explained);
    }
  }
}
