package org.sparknmt.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.clean.Normalizer;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.SparkCluster;

/** Prepare end to end in local mode on inputs written here, each bad-input class at a known line. */
class PrepareJobTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  /** Small limits: vocabulary 1000, at most 120 subwords a side, batches of 512 tokens, 2 shards. */
  private static final PrepareConfig CONFIG = new PrepareConfig(1000, 0.9995, 200_000, 80, 400, 9.0, 120, 512, 0, 2, 2, 0.0, 17);
  /** 200 distinct characters, each seen once: no merge joins them, so 201 subwords. */
  private static final String RARE_WORD = java.util.stream.IntStream.range(0, 200).mapToObj(i -> Character.toString(0x4E00 + 7 * i))
          .collect(java.util.stream.Collectors.joining());
  private static List<String> goodSource;
  private static List<String> goodTarget;

  @BeforeAll
  static void readSample() throws IOException {
    goodSource = Samples.lines("train.en.gz").subList(0, 300);
    goodTarget = Samples.lines("train.de.gz").subList(0, 300);
  }

  /** Line by line: the raw source and target bytes, and the reason expected for it (null: kept). */
  private record Line(byte[] source, byte[] target, String reason) {
    Line(String source, String target, String reason) {
      this(source.getBytes(StandardCharsets.UTF_8), target.getBytes(StandardCharsets.UTF_8), reason);
    }
  }

  private static List<Line> malformed() {
    List<Line> lines = new ArrayList<>();
    lines.add(new Line("A dog runs.", "Ein Hund rennt.", null));
    lines.add(new Line(new byte[] {'b', 'a', 'd', (byte) 0xC3, '(', '.'}, "Kaputt.".getBytes(StandardCharsets.UTF_8), "invalid-utf8"));
    lines.add(new Line("A bell\u0007rings.", "Eine Glocke läutet.", "control-character"));
    lines.add(new Line("", "Leer.", "empty-source"));
    lines.add(new Line("Two cats.", " \t ", "empty-target"));
    lines.add(new Line("\uFEFFA BOM and a CR.\r", "Ein BOM und ein CR.\r", null));
    lines.add(new Line("word ".repeat(81).trim(), "wort ".repeat(80).trim(), "too-long"));
    lines.add(new Line("one", "eins zwei drei vier fünf sechs sieben acht neun zehn", "length-ratio"));
    lines.add(new Line(RARE_WORD, "Seltene Zeichen.", "too-many-subwords"));
    lines.add(new Line("Tabs\tand  spaces ", "Tabs\tund  Leerzeichen ", null));
    for (int i = 0; i < goodSource.size(); i++) {
      lines.add(new Line(goodSource.get(i), goodTarget.get(i), null));
    }
    return lines;
  }

  private static Path writeSide(Path dir, String name, List<byte[]> lines) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (byte[] line : lines) {
      bytes.write(line);
      bytes.write('\n');
    }
    Path file = dir.resolve(name);
    Files.write(file, bytes.toByteArray());
    return file;
  }

  private static CorpusInput.Aligned aligned(Path dir, List<Line> lines) throws IOException {
    Path src = writeSide(dir, "train.en", lines.stream().map(Line::source).toList());
    Path tgt = writeSide(dir, "train.de", lines.stream().map(Line::target).toList());
    return new CorpusInput.Aligned(src.toUri().toString(), tgt.toUri().toString());
  }

  private static PrepareJob.Result prepare(CorpusInput train, CorpusInput valid, Path run, PrepareConfig config,
      boolean allowMisaligned, boolean force) throws IOException {
    return PrepareJob.run(SPARK.sc(), new PrepareJob.Request(train, valid, run.toUri().toString(), config,
        allowMisaligned, force));
  }

  private static List<JsonNode> rejects(Path run) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("data/rejects/part-00000"))) {
      out.add(json.readTree(line));
    }
    return out;
  }

  @Test
  void rejectsEachBadInputClassWithItsReasonAndLineAndReconciles() throws IOException {
    Path dir = BuildDirs.fresh("prepare-malformed");
    List<Line> lines = malformed();
    PrepareJob.Result result = prepare(aligned(dir, lines), null, dir.resolve("run"), CONFIG, false, false);

    Map<Long, String> expected = new TreeMap<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).reason() != null) {
        expected.put(i + 1L, lines.get(i).reason());
      }
    }
    Map<Long, String> actual = new TreeMap<>();
    List<JsonNode> rejects = rejects(dir.resolve("run"));
    for (JsonNode r : rejects) {
      actual.put(r.get("line").asLong(), r.get("reason").asText());
      assertTrue(r.get("source_file").asText().endsWith("train.en"), r.toString());
      assertFalse(r.get("detail").asText().isEmpty());
    }
    assertEquals(expected, actual);
    JsonNode invalid = rejects.get(0);
    assertEquals("source is not valid UTF-8 at byte 4", invalid.get("detail").asText());
    assertArrayEquals(lines.get(1).source(), Base64.getDecoder().decode(invalid.get("source_base64").asText()));
    assertEquals("A bell\u0007rings.", rejects.get(1).get("source").asText());

    JsonNode counts = result.manifest().get("counts");
    assertEquals(lines.size(), counts.get("read").asLong());
    assertEquals(counts.get("read").asLong(), counts.get("kept").asLong() + counts.get("rejected").asLong());
    assertEquals(expected.size(), counts.get("rejected").asLong());
    for (String reason : expected.values()) {
      assertEquals(1, counts.get("rejected_by_reason").get(reason).asLong(), reason);
    }
    assertEquals(1, counts.get("repaired_by_rule").get("bom").asLong());
    assertEquals(1, counts.get("repaired_by_rule").get("crlf").asLong());
    assertTrue(counts.get("repaired_by_rule").get("whitespace").asLong() >= 2);
    assertEquals(counts.get("kept").asLong(), counts.get("train").asLong());
  }

  @Test
  void shardsReadBackAsMultiDataSetsHoldingExactlyTheKeptText() throws IOException {
    Path dir = BuildDirs.fresh("prepare-shards");
    List<Line> lines = malformed();
    Path run = dir.resolve("run");
    prepare(aligned(dir, lines), null, run, CONFIG.withValidFraction(0.1), false, false);

    PreparedData data = PreparedData.open(run.toUri().toString(), new Configuration());
    BpeEncoder encoder = new BpeEncoder(data.vocabulary());
    List<Batch> train = data.batches(SPARK.sc(), Split.TRAIN).collect();
    List<Batch> valid = data.batches(SPARK.sc(), Split.VALID).collect();
    Map<Long, EncodedPair> seen = new HashMap<>();
    for (Batch batch : Stream.concat(train.stream(), valid.stream()).toList()) {
      if (batch.pairs().size() > 1) {
        assertTrue(batch.pairs().size() * Math.max(batch.sourceLength(), batch.targetLength()) <= CONFIG.maxTokens());
      }
      batch.pairs().forEach(p -> assertEquals(null, seen.put(p.lineId(), p), "pair in two batches"));
    }
    JsonNode manifest = data.manifest();
    assertEquals(manifest.get("counts").get("kept").asLong(), seen.size());
    assertEquals(manifest.get("counts").get("valid").asLong(), valid.stream().mapToLong(b -> b.pairs().size()).sum());
    assertTrue(manifest.get("counts").get("valid").asLong() > 10, "about a tenth held out");
    for (EncodedPair pair : seen.values()) {
      Line line = lines.get((int) LineId.line(pair.lineId()) - 1);
      assertEquals(null, line.reason());
      assertEquals(Normalizer.normalize(new String(line.source(), StandardCharsets.UTF_8).replace("\uFEFF", "")),
          encoder.decode(pair.source()));
      assertEquals(Normalizer.normalize(new String(line.target(), StandardCharsets.UTF_8)), encoder.decode(pair.target()));
    }
    List<MultiDataSet> mds = data.multiDataSets(SPARK.sc(), Split.TRAIN).collect();
    assertEquals(train.size(), mds.size());
    assertEquals(manifest.get("train").get("batches").asLong(), mds.size());
    double ratio = manifest.get("train").get("padding_ratio").asDouble();
    assertTrue(ratio >= 0 && ratio < 0.5, "length bucketing keeps padding low, was " + ratio);
  }

  @Test
  void differentLineCountsAreAnError() throws IOException {
    Path dir = BuildDirs.fresh("prepare-misaligned");
    List<byte[]> src = new ArrayList<>(malformed().stream().map(Line::source).toList());
    List<byte[]> tgt = new ArrayList<>(malformed().stream().map(Line::target).toList());
    src.add("An extra line.".getBytes(StandardCharsets.UTF_8));
    Path s = writeSide(dir, "a.en", src);
    Path t = writeSide(dir, "a.de", tgt);
    CorpusInput input = new CorpusInput.Aligned(s.toUri().toString(), t.toUri().toString());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> prepare(input, null, dir.resolve("run"), CONFIG, false, false));
    assertTrue(e.getMessage().contains("a.en has " + src.size() + " lines"), e.getMessage());
    assertTrue(e.getMessage().contains("a.de has " + tgt.size()), e.getMessage());
    assertFalse(Files.exists(dir.resolve("run/data")));
  }

  @Test
  void aLineDeletedMidFileWithAllowMisalignedRejectsThatPairOfFilesWholeInsteadOfMispairingTheRest()
      throws IOException {
    Path dir = BuildDirs.fresh("prepare-deleted-line");
    Path src = Files.createDirectories(dir.resolve("src"));
    Path tgt = Files.createDirectories(dir.resolve("tgt"));
    List<byte[]> source = goodSource.stream().map(l -> l.getBytes(StandardCharsets.UTF_8)).toList();
    List<byte[]> target = goodTarget.stream().map(l -> l.getBytes(StandardCharsets.UTF_8)).toList();
    writeSide(src, "part-0", source.subList(0, 100));
    writeSide(tgt, "part-0", target.subList(0, 100));
    writeSide(src, "part-1", source.subList(100, 200));
    List<byte[]> deleted = new ArrayList<>(target.subList(100, 200));
    deleted.remove(50);
    writeSide(tgt, "part-1", deleted);

    PrepareJob.Result result = prepare(new CorpusInput.Aligned(src.toUri().toString(), tgt.toUri().toString()), null,
        dir.resolve("run"), CONFIG, true, false);

    JsonNode counts = result.manifest().get("counts");
    assertEquals(100, counts.get("kept").asLong(), "the aligned pair of files is kept");
    assertEquals(100, counts.get("rejected_by_reason").get("misaligned").asLong(), "not one line of the other is paired");
    for (JsonNode reject : rejects(dir.resolve("run"))) {
      assertEquals("misaligned", reject.get("reason").asText());
      assertTrue(reject.get("source_file").asText().endsWith("src/part-1"), reject.toString());
      assertTrue(reject.get("detail").asText().endsWith("src/part-1 has 100 lines, " + reject.get("target_file").asText()
          + " has 99: a line is missing or extra somewhere, so no line of these files can be paired by its number"),
          reject.toString());
    }
  }

  @Test
  void readsTsvAndFoldersOfCompressedParts() throws IOException {
    Path dir = BuildDirs.fresh("prepare-tsv");
    List<Line> lines = malformed().subList(9, 200);
    Path tsvDir = Files.createDirectories(dir.resolve("tsv"));
    StringBuilder first = new StringBuilder();
    StringBuilder second = new StringBuilder("three\tcolumns\there\n");
    for (int i = 0; i < lines.size(); i++) {
      (i % 2 == 0 ? first : second).append(new String(lines.get(i).source(), StandardCharsets.UTF_8).replace('\t', ' '))
          .append('\t').append(new String(lines.get(i).target(), StandardCharsets.UTF_8).replace('\t', ' ')).append('\n');
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tsvDir.resolve("part-0.tsv.gz")))) {
      out.write(first.toString().getBytes(StandardCharsets.UTF_8));
    }
    BZip2Codec bzip2 = new BZip2Codec();
    bzip2.setConf(new Configuration());
    try (OutputStream out = bzip2.createOutputStream(Files.newOutputStream(tsvDir.resolve("part-1.tsv.bz2")))) {
      out.write(second.toString().getBytes(StandardCharsets.UTF_8));
    }
    Files.writeString(tsvDir.resolve("_SUCCESS"), "");
    PrepareJob.Result result = prepare(new CorpusInput.Tsv(tsvDir.toUri().toString()), null, dir.resolve("run"),
        CONFIG, false, false);
    assertEquals(lines.size() + 1, result.manifest().get("counts").get("read").asLong());
    JsonNode reject = rejects(dir.resolve("run")).stream()
        .filter(r -> r.get("reason").asText().equals("tsv-columns")).findFirst().orElseThrow();
    assertTrue(reject.get("source_file").asText().endsWith("part-1.tsv.bz2"));
    assertEquals(1, reject.get("line").asLong());
  }

  @Test
  void readsAlignedFoldersPartByPartWithTheirOwnLineNumbers() throws IOException {
    Path dir = BuildDirs.fresh("prepare-folders");
    List<Line> lines = malformed();
    Path en = Files.createDirectories(dir.resolve("en"));
    Path de = Files.createDirectories(dir.resolve("de"));
    writeSide(en, "part-0", lines.subList(0, 5).stream().map(Line::source).toList());
    writeSide(de, "part-0", lines.subList(0, 5).stream().map(Line::target).toList());
    writeSide(en, "part-1", lines.subList(5, lines.size()).stream().map(Line::source).toList());
    writeSide(de, "part-1", lines.subList(5, lines.size()).stream().map(Line::target).toList());
    PrepareJob.Result result = prepare(new CorpusInput.Aligned(en.toUri().toString(), de.toUri().toString()), null,
        dir.resolve("run"), CONFIG, false, false);
    assertEquals(lines.size(), result.manifest().get("counts").get("read").asLong());
    Map<String, String> where = new TreeMap<>();
    for (JsonNode r : rejects(dir.resolve("run"))) {
      String file = r.get("source_file").asText();
      where.put(file.substring(file.lastIndexOf('/') + 1) + ":" + r.get("line").asLong(), r.get("reason").asText());
    }
    assertEquals(Map.of("part-0:2", "invalid-utf8", "part-0:3", "control-character", "part-0:4", "empty-source",
        "part-0:5", "empty-target", "part-1:2", "too-long", "part-1:3", "length-ratio", "part-1:4", "too-many-subwords"),
        where);
  }

  @Test
  void rerunIsANoOpAndAForcedRerunWritesIdenticalBytes() throws IOException {
    Path dir = BuildDirs.fresh("prepare-rerun");
    CorpusInput input = aligned(dir, malformed());
    Path run = dir.resolve("run");
    prepare(input, null, run, CONFIG.withValidFraction(0.1), false, false);
    Map<String, byte[]> before = files(run.resolve("data"));
    assertTrue(prepare(input, null, run, CONFIG.withValidFraction(0.1), false, false).upToDate());

    assertThrows(IllegalArgumentException.class, () -> prepare(input, null, run, CONFIG, false, false),
        "another configuration must not silently replace RUN/data");
    Files.createDirectories(run.resolve(RunLayout.TMP_PREFIX + "killed/train"));
    PrepareJob.Result forced = prepare(input, null, run, CONFIG.withValidFraction(0.1), false, true);
    assertFalse(forced.upToDate());
    Map<String, byte[]> after = files(run.resolve("data"));
    assertEquals(before.keySet(), after.keySet());
    for (String name : before.keySet()) {
      if (!name.endsWith(RunLayout.MANIFEST) && !name.endsWith(".crc")) {
        assertArrayEquals(before.get(name), after.get(name), name);
      }
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode m1 = json.readTree(before.get(RunLayout.MANIFEST));
    JsonNode m2 = json.readTree(after.get(RunLayout.MANIFEST));
    ((com.fasterxml.jackson.databind.node.ObjectNode) m1).remove("timings_ms");
    ((com.fasterxml.jackson.databind.node.ObjectNode) m2).remove("timings_ms");
    assertEquals(m1, m2);
    try (Stream<Path> left = Files.list(run)) {
      assertEquals(List.of("data"), left.map(p -> p.getFileName().toString()).toList(), "stale staging removed");
    }
  }

  @Test
  void incompleteOrTamperedOutputIsRefused() throws IOException {
    Path dir = BuildDirs.fresh("prepare-incomplete");
    Path run = dir.resolve("run");
    Files.createDirectories(run.resolve("data/train"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PreparedData.open(run.toUri().toString(), new Configuration()));
    assertTrue(e.getMessage().contains("incomplete prepare"), e.getMessage());

    prepare(aligned(dir, malformed()), null, run, CONFIG, false, true);
    Path vocab = run.resolve("data/vocab/bpe.json");
    Files.delete(run.resolve("data/vocab/.bpe.json.crc"));
    Files.writeString(vocab, Files.readString(vocab).replace("\"size\"", "\"size\" "));
    IllegalStateException tampered = assertThrows(IllegalStateException.class,
        () -> PreparedData.open(run.toUri().toString(), new Configuration()));
    assertTrue(tampered.getMessage().contains("changed after prepare"), tampered.getMessage());
  }

  @Test
  void inputWithNothingToKeepFailsWithTheReasonsAndLeavesNothing() throws IOException {
    Path dir = BuildDirs.fresh("prepare-nothing");
    List<Line> lines = List.of(new Line("", "leer", "empty-source"), new Line(" ", "auch leer", "empty-source"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> prepare(aligned(dir, lines), null, dir.resolve("run"), CONFIG, false, false));
    assertTrue(e.getMessage().contains("empty-source=2"), e.getMessage());
    try (Stream<Path> left = Files.list(dir.resolve("run"))) {
      assertEquals(List.of(), left.toList(), "the staging folder is removed");
    }
  }

  private static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        out.put(root.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return out;
  }
}
