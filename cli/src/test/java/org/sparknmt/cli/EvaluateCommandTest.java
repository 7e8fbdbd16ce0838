package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.lines.HadoopLines;
import org.sparknmt.common.scores.Bleu;
import org.sparknmt.common.scores.BleuScore;
import org.sparknmt.common.scores.Chrf;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.common.scores.EvaluationTest;
import org.sparknmt.evaluate.EvaluateJob;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;

/** {@code sparknmt evaluate} on a real HDFS and a local-cluster with two executor JVMs. */
class EvaluateCommandTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  @Test
  void printsSacreBleusLinesForPlainAndGzippedFilesOnHdfs() throws IOException {
    String hyp = write("/lines/hyp.txt", EvaluationTest.HYPS);
    String ref = writeGzip("/lines/ref.txt.gz", EvaluationTest.REFS);
    assertEquals(List.of(EvaluationTest.SACREBLEU_BLEU, EvaluationTest.SACREBLEU_CHRF,
            "BLEU signature: " + Bleu.SIGNATURE, "chrF2 signature: " + Chrf.SIGNATURE),
        evaluate("--hyp", hyp, "--ref", ref));
  }

  @Test
  void jsonIsOneObject() throws IOException {
    String hyp = write("/json/hyp.txt", EvaluationTest.HYPS);
    String ref = write("/json/ref.txt", EvaluationTest.REFS);
    List<String> out = evaluate("--hyp", hyp, "--ref", ref, "--json");
    assertEquals(1, out.size());
    JsonNode json = new ObjectMapper().readTree(out.get(0));
    assertEquals(41.4196371318975, json.get("bleu").asDouble(), 1e-9);
    assertEquals(60.605946930579755, json.get("chrf").asDouble(), 1e-9);
    assertEquals(Bleu.SIGNATURE, json.get("signature").get("bleu").asText());
    assertEquals(hyp, json.get("hyp").asText());
  }

  @Test
  void scoresSeveralHypothesesAgainstOneReferenceInOneRun() throws IOException {
    String perfect = write("/several/perfect.txt", EvaluationTest.REFS);
    String hyp = write("/several/hyp.txt", EvaluationTest.HYPS);
    String ref = write("/several/ref.txt", EvaluationTest.REFS);
    assertEquals(List.of(
            perfect,
            "  BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 23 ref_len = 23)",
            "  chrF2 = 100.00",
            hyp,
            "  " + EvaluationTest.SACREBLEU_BLEU,
            "  " + EvaluationTest.SACREBLEU_CHRF,
            "BLEU signature: " + Bleu.SIGNATURE,
            "chrF2 signature: " + Chrf.SIGNATURE),
        evaluate("--hyp", perfect, "--hyp", hyp, "--ref", ref));

    List<String> json = evaluate("--hyp", perfect, "--hyp", hyp, "--ref", ref, "--json");
    assertEquals(2, json.size(), "one JSON object a line");
    assertEquals(100.0, new ObjectMapper().readTree(json.get(0)).get("bleu").asDouble(), 1e-12);
    assertEquals(hyp, new ObjectMapper().readTree(json.get(1)).get("hyp").asText());

    String truncated = write("/several/short.txt", EvaluationTest.HYPS.subList(0, 3));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> evaluate("--hyp", perfect, "--hyp", truncated, "--ref", ref));
    assertEquals("hypothesis and reference differ in length: --hyp " + truncated + " has 3 lines, --ref " + ref + " has 4 lines",
        e.getMessage());
  }

  @Test
  void readsADirectoryOfPartFilesInNameOrder() throws IOException {
    // Written in reverse, so that creation order would give the wrong pairing.
    write("/parts/hyp/part-00001", EvaluationTest.HYPS.subList(2, 4));
    write("/parts/hyp/part-00000", EvaluationTest.HYPS.subList(0, 2));
    write("/parts/hyp/_SUCCESS", List.of());
    String ref = write("/parts/ref.txt", EvaluationTest.REFS);
    assertEquals(EvaluationTest.SACREBLEU_BLEU, evaluate("--hyp", HDFS.path("/parts/hyp"), "--ref", ref).get(0));
  }

  @Test
  void statisticsOverManySplitsEqualTheDriversComputation() throws IOException {
    List<String> refs = sentences(new Random(1), 2_000);
    List<String> hyps = new ArrayList<>();
    Random random = new Random(2);
    for (String r : refs) {
      // Some lines end in "\r" (CRLF files) or carry one inside: sacreBLEU reads both as whitespace in the line.
      String h = random.nextInt(4) == 0 ? sentences(random, 1).get(0) : r;
      hyps.add(random.nextInt(10) == 0 ? h + "\r" : random.nextInt(10) == 0 ? h.replaceFirst(" ", " \r") : h);
    }
    String hyp = write("/big/hyp.txt", hyps);
    String ref = write("/big/ref.txt", refs);
    // Small splits put many split boundaries inside lines, where a reader could lose or repeat one.
    Configuration hadoop = SPARK.sc().hadoopConfiguration();
    hadoop.setLong(FileInputFormat.SPLIT_MAXSIZE, 16 << 10);
    Evaluation evaluation;
    try {
      assertTrue(HadoopLines.read(SPARK.sc(), hyp, "--hyp").getNumPartitions() > 4, "the hypothesis should have several splits");
      evaluation = EvaluateJob.run(SPARK.sc(), hyp, ref);
    } finally {
      hadoop.unset(FileInputFormat.SPLIT_MAXSIZE);
    }
    BleuScore expected = Bleu.corpus(hyps, refs);
    assertEquals(2_000, evaluation.lines());
    assertArrayEquals(expected.counts(), evaluation.bleu().counts());
    assertArrayEquals(expected.totals(), evaluation.bleu().totals());
    assertEquals(expected.sysLen(), evaluation.bleu().sysLen());
    assertEquals(expected.refLen(), evaluation.bleu().refLen());
    assertEquals(expected.score(), evaluation.bleu().score(), 1e-9);
    assertEquals(Chrf.corpus(hyps, refs).score(), evaluation.chrf().score(), 1e-9);
  }

  @Test
  void aByteOrderMarkStaysPartOfTheFirstLineAsInSacreBleu() throws IOException {
    // Hadoop's reader drops it; sacreBLEU reads "\uFEFFThe" as one token that does not match "The".
    List<String> hyps = List.of("\uFEFFThe cat sat .", "a dog");
    List<String> refs = List.of("The cat sat .", "a dog");
    String hyp = write("/bom/hyp.txt", hyps);
    String hypGz = writeGzip("/bom/hyp.txt.gz", hyps);
    String ref = write("/bom/ref.txt", refs);
    BleuScore expected = Bleu.corpus(hyps, refs);
    assertArrayEquals(new long[] {5, 3, 1, 0}, expected.counts());
    assertArrayEquals(expected.counts(), EvaluateJob.run(SPARK.sc(), hyp, ref).bleu().counts());
    assertArrayEquals(expected.counts(), EvaluateJob.run(SPARK.sc(), hypGz, ref).bleu().counts());
  }

  @Test
  void differentLineCountsNameBothFilesAndCounts() throws IOException {
    String hyp = write("/mismatch/hyp.txt", EvaluationTest.HYPS);
    String ref = write("/mismatch/ref.txt", EvaluationTest.REFS.subList(0, 3));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> evaluate("--hyp", hyp, "--ref", ref));
    assertEquals("hypothesis and reference differ in length: --hyp " + hyp + " has 4 lines, --ref " + ref + " has 3 lines",
        e.getMessage());
  }

  @Test
  void aLineThatIsNotUtf8FailsNamingTheFileAndTheLine() throws IOException {
    FileSystem fs = HDFS.hdfs().cluster().getFileSystem();
    try (OutputStream out = fs.create(new Path("/latin1/hyp.txt"))) {
      out.write(new byte[] {'o', 'k', '\n', 'c', 'a', 'f', (byte) 0xE9, '\n', 'x', '\n'});
    }
    Exception e = assertThrows(Exception.class,
        () -> HadoopLines.read(SPARK.sc(), HDFS.path("/latin1/hyp.txt"), "--hyp").collect());
    assertTrue(e.getMessage().contains(HDFS.path("/latin1/hyp.txt") + ": the line at byte 3 is not valid UTF-8"),
        e.getMessage());
  }

  @Test
  void aMissingFileIsNamed() throws IOException {
    String ref = write("/missing/ref.txt", EvaluationTest.REFS);
    String hyp = HDFS.path("/missing/hyp.txt");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> evaluate("--hyp", hyp, "--ref", ref));
    assertEquals("--hyp " + hyp + ": no such file", e.getMessage());
  }

  @Test
  void emptyFilesAreNothingToEvaluate() throws IOException {
    String hyp = write("/empty/hyp.txt", List.of());
    String ref = write("/empty/ref.txt", List.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> evaluate("--hyp", hyp, "--ref", ref));
    assertTrue(e.getMessage().startsWith("nothing to evaluate"), e.getMessage());
  }

  /** {@code sparknmt evaluate ARGS} on the test cluster; its output lines. */
  private static List<String> evaluate(String... args) {
    return EvaluateCli.evaluate(SPARK.sc(), args);
  }

  /** Writes {@code lines}, each ended by '\n'. */
  private static String write(String path, List<String> lines) throws IOException {
    FileSystem fs = HDFS.hdfs().cluster().getFileSystem();
    try (OutputStream out = fs.create(new Path(path))) {
      out.write(text(lines));
    }
    return HDFS.path(path);
  }

  private static String writeGzip(String path, List<String> lines) throws IOException {
    FileSystem fs = HDFS.hdfs().cluster().getFileSystem();
    try (OutputStream out = new GZIPOutputStream(fs.create(new Path(path)))) {
      out.write(text(lines));
    }
    return HDFS.path(path);
  }

  private static byte[] text(List<String> lines) {
    StringBuilder text = new StringBuilder();
    lines.forEach(line -> text.append(line).append('\n'));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> sentences(Random random, int count) {
    String[] words = {"the", "a", "cat", "dog", "sat", "on", "mat", ",", ".", "5.30", "Haus", "groß", "(hi)", "&amp;", "😀", "e.g."};
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      StringBuilder s = new StringBuilder();
      for (int w = random.nextInt(25); w >= 0; w--) {
        s.append(words[random.nextInt(words.length)]).append(w > 0 ? " " : "");
      }
      out.add(s.toString());
    }
    return out;
  }
}
