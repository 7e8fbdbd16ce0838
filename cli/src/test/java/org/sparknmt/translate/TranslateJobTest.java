package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.cli.EvaluateCli;
import org.sparknmt.cli.ExitCodes;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/**
 * {@code sparknmt translate} and checkpoint evaluation runs on a real HDFS and a local-cluster with
 * two executor JVMs, with untrained checkpoints of a tiny prepared run. Slow: two prepare runs.
 */
@Tag("slow")
class TranslateJobTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  /** Short outputs keep an untrained model's searches cheap. */
  private static final TranslateConfig SEARCH = Searches.search("translate.beam=2", "translate.max_len_a=0",
      "translate.max_len_b=6", "translate.batch_size=4", "translate.partitions=3");
  private static String run;
  private static CheckpointStore.Checkpoint step10;
  private static CheckpointStore.Checkpoint step20;

  @BeforeAll
  static void prepare() throws IOException {
    run = TinyRun.prepare(SPARK.sc(), HDFS, "tiny", 400);
    step10 = TinyRun.checkpoint(run, RunLayout.checkpointName(10), 10, 1, 3.0, hadoop());
    step20 = TinyRun.checkpoint(run, RunLayout.checkpointName(20), 20, 2, 4.0, hadoop());
  }

  @Test
  void translatesAFileOnHdfsLineForLineInOrder() throws IOException {
    List<String> input = new ArrayList<>(TinyRun.sample("valid.en.gz", 30));
    input.add(0, "");
    input.add(7, "   \t ");
    input.add(12, String.join(" ", input.subList(1, 7)));
    input.add("");
    String in = TinyRun.write(HDFS, "/translate/order/input.en.gz", input, true);
    String out = HDFS.path("/translate/order/output.de");
    TranslationModel model = TranslationModel.load(run, "step-10", hadoop());
    int pieces = LongSentences.pieces(new BpeEncoder(model.vocabulary()).encode(input.get(12)), TinyRun.MODEL.maxLength() - 1,
        model.vocabulary()).size();
    assertTrue(pieces >= 3, "line 12 should be far longer than max_length, got " + pieces + " pieces");

    TranslateJob.Result result = TranslateJob.run(SPARK.sc(), model, SEARCH, in, out, false);

    List<String> output = TinyRun.read(out, hadoop());
    assertEquals(input.size(), output.size());
    assertEquals(input.size(), result.lines());
    assertEquals("", output.get(0));
    assertEquals("", output.get(7));
    assertEquals("", output.get(output.size() - 1));
    SentenceTranslator alone = model.sentenceTranslator(SEARCH.withBatchSize(1));
    for (int i = 0; i < input.size(); i++) {
      assertEquals(alone.translate(List.of(input.get(i))).get(0), output.get(i), "line " + i);
    }
    assertFalse(output.get(12).isEmpty(), "the over-long line is translated in pieces, not dropped");
    assertTrue(output.stream().distinct().count() > 5, "outputs too alike to show the order: " + output);
    assertTrue(result.targetTokens() > 0);
  }

  @Test
  void samplesNbestListsAndPrefixesAreNumberedByLineWhateverThePartitions() throws IOException {
    List<String> input = new ArrayList<>(TinyRun.sample("valid.en.gz", 20));
    input.add(5, "");
    String in = TinyRun.write(HDFS, "/translate/hypotheses/input.en", input, false);
    List<String> prefix = new ArrayList<>();
    for (int i = 0; i < input.size(); i++) {
      prefix.add(i % 3 == 0 ? "" : i % 3 == 1 ? "Ein" : "Zwei Hunde");
    }
    String prefixes = TinyRun.write(HDFS, "/translate/hypotheses/prefix.de", prefix, false);
    TranslationModel model = TranslationModel.load(run, "step-10", hadoop());
    for (HypothesesConfig wanted : List.of(HypothesesConfig.best().withOutputFormat(OutputFormat.FAIRSEQ)
        .withAlignments(true).withSample("topp=0.9").withTemperature(1.2).withSeed(3),
        HypothesesConfig.best().withOutputFormat(OutputFormat.JSON).withNbest(2).withPrefix(prefixes))) {
      List<List<String>> outputs = new ArrayList<>();
      for (int partitions : new int[] {1, 3}) {
        String out = HDFS.path("/translate/hypotheses/" + wanted.outputFormat() + "-" + partitions);
        TranslateJob.run(SPARK.sc(), model, SEARCH.withPartitions(partitions), wanted, in, out, false);
        outputs.add(TinyRun.read(out, hadoop()));
      }
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      StreamTranslation.translate(new NumberedLines(model.sentenceTranslator(SEARCH), wanted,
          wanted.prefixed() ? TargetPrefixes.open(prefixes, hadoop()) : null),
          new ByteArrayInputStream((String.join("\n", input) + "\n").getBytes(StandardCharsets.UTF_8)), stream);
      List<String> alone = stream.toString(StandardCharsets.UTF_8).lines().toList();
      // texts and line numbers; the last digits of a score may differ with the batch's GEMMs
      assertEquals(withoutScores(alone), withoutScores(outputs.get(0)), wanted + ": one partition");
      assertEquals(withoutScores(alone), withoutScores(outputs.get(1)), wanted + ": three partitions");
      assertTrue(outputs.get(1).get(outputs.get(1).size() - 1).startsWith(
          wanted.outputFormat() == OutputFormat.JSON ? "{\"id\":20," : "A-20\t"), outputs.get(1).toString());
      if (wanted.prefixed()) {
        assertTrue(outputs.get(1).get(1).contains("\"text\":\"Ein") && outputs.get(1).get(2).contains("\"text\":\"Zwei Hunde"),
            "line 1 and 2 start with their prefixes: " + outputs.get(1));
      }
    }
    String shorter = TinyRun.write(HDFS, "/translate/hypotheses/prefix-short.de", prefix.subList(0, 19), false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TranslateJob.run(SPARK.sc(), model,
        SEARCH, HypothesesConfig.best().withPrefix(shorter), in,
        HDFS.path("/translate/hypotheses/short"), false));
    assertEquals("--prefix " + shorter + " has 19 lines, fewer than --input " + in + ": line 20 of --input " + in
        + " has no prefix", e.getMessage());
  }

  private static List<String> withoutScores(List<String> lines) {
    return lines.stream().map(l -> l.replaceAll("-?[0-9]+\\.[0-9]+(E-?[0-9]+)?", "S")).toList();
  }

  @Test
  void standardInputToStandardOutputWithoutSpark() throws IOException {
    List<String> input = List.of("A man is walking .", "", "Two dogs play in the snow .");
    TranslationModel model = TranslationModel.load(run, "latest", hadoop());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamTranslation.translate(model.sentenceTranslator(SEARCH),
        new ByteArrayInputStream((String.join("\n", input) + "\n").getBytes(StandardCharsets.UTF_8)), out);
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(model.sentenceTranslator(SEARCH).translate(input), lines);
  }

  @Test
  void checkpointsAreNamedByEveryForm() throws IOException {
    TinyRun.checkpoint(run, "avg-last-2-step-00000020", 20, 3, 5.0, hadoop());
    assertEquals("step-00000020", TranslationModel.load(run, "latest", hadoop()).checkpoint());
    assertEquals("step-00000010", TranslationModel.load(run, "best", hadoop()).checkpoint());
    for (String form : List.of("step-10", "step-00000010", "10", step10.path().toString())) {
      TranslationModel model = TranslationModel.load(run, form, hadoop());
      assertEquals("step-00000010", model.checkpoint(), form);
      assertEquals(10, model.step(), form);
    }
    TranslationModel averaged = TranslationModel.load(run, "avg-last-2-step-00000020", hadoop());
    assertEquals("avg-last-2-step-00000020", averaged.checkpoint());
    assertEquals(20, averaged.step());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> TranslationModel.load(run, "step-99", hadoop()));
    assertTrue(missing.getMessage().contains("step-00000099 does not exist"), missing.getMessage());
  }

  @Test
  void aCheckpointOfAnotherVocabularyIsAClearError() throws IOException {
    String other = TinyRun.prepare(SPARK.sc(), HDFS, "other-vocabulary", 330);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TranslationModel.load(other, step10.path().toString(), hadoop()));
    assertTrue(e.getMessage().startsWith("checkpoint " + step10.path() + " was trained with vocabulary "
        + step10.state().vocabularySha256() + ", but the run's data has vocabulary "), e.getMessage());
    CheckpointStore.Checkpoint own = TinyRun.checkpoint(other, RunLayout.checkpointName(5), 5, 1, 3.0, hadoop());
    UsageException ensemble = assertThrows(UsageException.class,
        () -> TranslationModel.load(other, List.of("step-5", step10.path().toString()), hadoop()));
    assertEquals("--checkpoint step-5 and --checkpoint " + step10.path() + " were trained with different vocabularies ("
        + own.state().vocabularySha256() + " and " + step10.state().vocabularySha256()
        + "): an ensemble averages distributions over one vocabulary", ensemble.getMessage());
  }

  @Test
  void anEnsembleTranslatesOnSparkAsOnStandardInputAndTwoIdenticalModelsAsOne() throws IOException {
    List<String> input = new ArrayList<>(TinyRun.sample("valid.en.gz", 12));
    input.add(3, "");
    String in = TinyRun.write(HDFS, "/translate/ensemble/input.en", input, false);
    TranslationModel both = TranslationModel.load(run, List.of("step-10", "step-20"), hadoop());
    assertEquals("step-00000010+step-00000020", both.checkpoint());
    String out = HDFS.path("/translate/ensemble/output.de");
    TranslateJob.run(SPARK.sc(), both, SEARCH, in, out, false);
    List<String> alone = both.sentenceTranslator(SEARCH).translate(input);
    assertEquals(alone, TinyRun.read(out, hadoop()), "the broadcast ensemble translates as the driver's");
    assertTrue(!alone.equals(TranslationModel.load(run, "step-10", hadoop()).sentenceTranslator(SEARCH).translate(input))
        && !alone.equals(TranslationModel.load(run, "step-20", hadoop()).sentenceTranslator(SEARCH).translate(input)),
        "the ensemble translates otherwise than either model: " + alone);
    assertEquals(TranslationModel.load(run, "step-10", hadoop()).sentenceTranslator(SEARCH).translate(input),
        TranslationModel.load(run, List.of("step-10", "step-10"), hadoop()).sentenceTranslator(SEARCH).translate(input),
        "two identical models translate as one");
  }

  @Test
  void aDamagedCheckpointIsNamed() throws IOException {
    CheckpointStore.Checkpoint damaged = TinyRun.checkpoint(run, RunLayout.checkpointName(30), 30, 4, 9.0, hadoop());
    Path model = new Path(damaged.path(), CheckpointStore.MODEL);
    FileSystem fs = model.getFileSystem(hadoop());
    byte[] bytes;
    try (InputStream in = fs.open(model)) {
      bytes = in.readAllBytes();
    }
    bytes[bytes.length / 2] ^= 0x5A;
    try (OutputStream out = fs.create(model, true)) {
      out.write(bytes);
    }
    try {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> TranslationModel.load(run, "step-30", hadoop()));
      assertTrue(e.getMessage().contains(damaged.path() + " is damaged: model.zip has SHA-256"), e.getMessage());
    } finally {
      fs.delete(damaged.path(), true);
    }
  }

  @Test
  void missingInputAndExistingOutputAreNamed() throws IOException {
    TranslationModel model = TranslationModel.load(run, "latest", hadoop());
    String missing = HDFS.path("/translate/missing/input.en");
    String out = HDFS.path("/translate/missing/output.de");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TranslateJob.run(SPARK.sc(), model, SEARCH, missing, out, false));
    assertEquals("--input " + missing + ": no such file", e.getMessage());

    String in = TinyRun.write(HDFS, "/translate/exists/input.en", List.of("A dog ."), false);
    String existing = TinyRun.write(HDFS, "/translate/exists/output.de", List.of("old"), false);
    e = assertThrows(IllegalArgumentException.class, () -> TranslateJob.run(SPARK.sc(), model, SEARCH, in, existing, false));
    assertEquals("--output " + existing + " exists; remove it or pass --force", e.getMessage());
    TranslateJob.run(SPARK.sc(), model, SEARCH, in, existing, true);
    assertEquals(model.sentenceTranslator(SEARCH).translate(List.of("A dog .")), TinyRun.read(existing, hadoop()));
  }

  /** The error a user reads: the named one inside Spark's "Job aborted.", as {@code sparknmt translate} prints it. */
  @Test
  void aFolderHoldingAFileThatIsNotUtf8IsANamedError() throws IOException {
    TranslationModel model = TranslationModel.load(run, "latest", hadoop());
    TinyRun.write(HDFS, "/translate/folder/in/part-00000", List.of("A dog ."), false);
    FileSystem fs = HDFS.hdfs().cluster().getFileSystem();
    try (OutputStream latin1 = fs.create(new Path("/translate/folder/in/part-00001"))) {
      latin1.write("Ein Hund .\nGr\u00FC\u00DFe .\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    String out = HDFS.path("/translate/folder/out.de");
    Exception e = assertThrows(Exception.class,
        () -> TranslateJob.run(SPARK.sc(), model, SEARCH, HDFS.path("/translate/folder/in"), out, false));
    assertEquals(HDFS.path("/translate/folder/in/part-00001") + ": the line at byte 11 is not valid UTF-8",
        ExitCodes.describe(e));
    assertFalse(fs.exists(new Path("/translate/folder/out.de")), "no partial output");
  }

  @Test
  void evaluatesSeveralCheckpointsIntoATableAndJson() throws IOException {
    List<String> src = TinyRun.sample("valid.en.gz", 12);
    List<String> ref = TinyRun.sample("valid.de.gz", 12);
    String srcUri = TinyRun.write(HDFS, "/eval/src.en", src, false);
    String refUri = TinyRun.write(HDFS, "/eval/ref.de", ref, false);

    List<String> out = evaluate("--run", run, "--checkpoints", "all", "--src", srcUri, "--ref", refUri,
        "--beam", "1", "--max-len-a", "0", "--max-len-b", "6");

    assertTrue(out.get(0).matches("checkpoint\\s+step\\s+BLEU\\s+chrF2\\s+ratio\\s+sentences/s"), out.get(0));
    assertTrue(out.get(1).matches("step-00000010\\s+10\\s+\\d+\\.\\d\\d\\s+\\d+\\.\\d\\d\\s+\\d\\.\\d{3}\\s+\\d+\\.\\d"), out.get(1));
    assertTrue(out.get(2).startsWith("step-00000020 "), out.get(2));
    String written = out.get(out.size() - 1).substring("written: ".length());
    assertTrue(written.startsWith(run + "/eval/eval-") && written.endsWith(".json"), written);
    JsonNode json = new ObjectMapper().readTree(TinyRun.text(written, hadoop()));
    assertEquals(2, json.get("checkpoints").size());
    assertEquals(1, json.get("search").get("beam").asInt());
    for (JsonNode row : json.get("checkpoints")) {
      List<String> hyp = TinyRun.read(row.get("hyp").asText(), hadoop());
      assertEquals(src.size(), hyp.size());
      assertEquals(Bleu.corpus(hyp, ref).score(), row.get("bleu").asDouble(), 1e-9, row.toString());
      assertEquals(Bleu.corpus(hyp, ref).ratio(), row.get("ratio").asDouble(), 1e-9);
      assertTrue(row.get("sentences_per_second").asDouble() > 0);
    }
    assertEquals(List.of(10L, 20L), List.of(json.get("checkpoints").get(0).get("step").asLong(),
        json.get("checkpoints").get(1).get("step").asLong()));

    List<String> mixed = evaluate("--run", run, "--checkpoints", "last:1,step-10,step-00000020", "--src", srcUri, "--ref", refUri,
        "--beam", "1", "--max-len-a", "0", "--max-len-b", "6", "--json");
    assertEquals(1, mixed.size());
    JsonNode rows = new ObjectMapper().readTree(mixed.get(0)).get("checkpoints");
    assertEquals(List.of("step-00000020", "step-00000010"),
        List.of(rows.get(0).get("checkpoint").asText(), rows.get(1).get("checkpoint").asText()));
    assertEquals(2, rows.size(), "a checkpoint named twice is scored once");
  }

  @Test
  void evaluationOfMisalignedFilesIsAClearError() throws IOException {
    String srcUri = TinyRun.write(HDFS, "/eval-mismatch/src.en", TinyRun.sample("valid.en.gz", 5), false);
    String refUri = TinyRun.write(HDFS, "/eval-mismatch/ref.de", TinyRun.sample("valid.de.gz", 4), false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> evaluate("--run", run, "--src", srcUri, "--ref", refUri));
    assertEquals("source and reference differ in length: --src " + srcUri + " has 5 lines, --ref " + refUri + " has 4 lines",
        e.getMessage());
  }

  /** {@code sparknmt evaluate ARGS} on the test cluster; its output lines. */
  private static List<String> evaluate(String... args) {
    return EvaluateCli.evaluate(SPARK.sc(), args);
  }

  private static Configuration hadoop() {
    return SPARK.sc().hadoopConfiguration();
  }
}
