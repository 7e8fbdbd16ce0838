package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.testkit.BuildDirs;
import picocli.CommandLine;

/** {@code sparknmt prepare} end to end on the shipped sample, as a user runs it. */
class PrepareCommandTest {
  private static final Path SAMPLE = BuildDirs.root().getParent().resolve("data/sample");

  private record Run(int exitCode, String out, String err) {}

  private static Run sparknmt(String... args) {
    CommandLine cli = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void preparesTheSampleThenIsANoOp() throws Exception {
    Path run = BuildDirs.fresh("prepare-command").resolve("run");
    String[] args = {"prepare", "--src", SAMPLE.resolve("train.en.gz").toString(), "--tgt",
        SAMPLE.resolve("train.de.gz").toString(), "--run", run.toString(), "--valid-fraction", "0.05",
        "--master", "local[2]", "--conf", SAMPLE.resolve("../../conf/prepare-multi30k.conf").normalize().toString(),
        "--set", "data.vocab_size=2000", "--set", "data.shards=2"};
    Run first = sparknmt(args);
    assertEquals(0, first.exitCode(), first.err());
    assertTrue(first.out().contains("prepare: read 3000 pairs"), first.out());
    JsonNode manifest = new ObjectMapper().readTree(run.resolve("data/manifest.json").toFile());
    assertEquals(2000, manifest.get("vocab").get("size").asInt());
    assertEquals(2000, manifest.get("config").get("vocab_size").asInt());
    assertEquals(2, manifest.get("train").get("shards").size());
    assertEquals(3000, manifest.get("config").get("max_tokens").asInt(), "from conf/prepare-multi30k.conf");
    assertEquals(3000, manifest.get("counts").get("train").asLong() + manifest.get("counts").get("valid").asLong());
    PreparedData data = PreparedData.open(run.toUri().toString(), new Configuration());
    assertEquals(manifest.get("vocab").get("sha256").asText(), data.vocabulary().sha256());

    byte[] before = Files.readAllBytes(run.resolve("data/manifest.json"));
    Run again = sparknmt(args);
    assertEquals(0, again.exitCode(), again.err());
    assertTrue(again.out().contains("is up to date"), again.out());
    assertEquals(new String(before), Files.readString(run.resolve("data/manifest.json")));
  }

  @Test
  void misalignedDataFailsAndBadOptionsAndConfigAreUsageErrorsNamingTheProblem() throws Exception {
    Path dir = BuildDirs.fresh("prepare-command-bad");
    Files.writeString(dir.resolve("a.en"), "one\ntwo\nthree\n");
    Files.writeString(dir.resolve("a.de"), "eins\nzwei\n");
    Run misaligned = sparknmt("prepare", "--src", dir.resolve("a.en").toString(), "--tgt", dir.resolve("a.de").toString(),
        "--run", dir.resolve("run").toString(), "--master", "local[1]");
    assertEquals(1, misaligned.exitCode(), "the data is at fault, not the command line");
    assertTrue(misaligned.err().contains("a.en has 3 lines") && misaligned.err().contains("a.de has 2"), misaligned.err());

    Run vocab = sparknmt("prepare", "--tsv", "x.tsv", "--run", "r", "--set", "data.vocab_size=10");
    assertEquals(2, vocab.exitCode());
    assertTrue(vocab.err().contains("vocab_size must be at least 300"), vocab.err());
    Run maxWords = sparknmt("prepare", "--tsv", "x.tsv", "--run", "r", "--set", "data.vocab_max_words=0");
    assertEquals(2, maxWords.exitCode());
    assertTrue(maxWords.err().contains("data.vocab_max_words") && maxWords.err().contains("must be positive, was 0"),
        maxWords.err());

    Run both = sparknmt("prepare", "--tsv", "x.tsv", "--src", "a", "--tgt", "b", "--run", "r");
    assertEquals(2, both.exitCode());
  }

  @Test
  void aTruncatedGzipSourceIsANamedErrorNotAStackTrace() throws Exception {
    Path dir = BuildDirs.fresh("prepare-command-truncated");
    StringBuilder en = new StringBuilder();
    StringBuilder de = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      en.append("sentence number ").append(i).append(" of the source side .\n");
      de.append("satz nummer ").append(i).append(" der zielseite .\n");
    }
    byte[] gzip = gzip(en.toString());
    Files.write(dir.resolve("a.en.gz"), java.util.Arrays.copyOf(gzip, gzip.length / 2));
    Files.write(dir.resolve("a.de.gz"), gzip(de.toString()));
    Run truncated = sparknmt("prepare", "--src", dir.resolve("a.en.gz").toString(), "--tgt",
        dir.resolve("a.de.gz").toString(), "--run", dir.resolve("run").toString(), "--master", "local[1]");
    assertEquals(1, truncated.exitCode(), truncated.err());
    List<String> lines = truncated.err().strip().lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(last.startsWith("sparknmt prepare: ") && last.contains(dir.resolve("a.en.gz") + ": reading failed after byte "),
        truncated.err());
    assertTrue(last.endsWith("Unexpected end of input stream (the file ends early: truncated or damaged?)"), last);
  }

  private static byte[] gzip(String text) throws java.io.IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
      out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  @Test
  void tableOptionsAndColumnsAreUsageErrorsNamingThem() throws Exception {
    Run noColumns = sparknmt("prepare", "--table", "t.parquet", "--run", "r");
    assertEquals(2, noColumns.exitCode());
    assertTrue(noColumns.err().contains("--table t.parquet needs --src-column NAME and --tgt-column NAME"),
        noColumns.err());
    Run columnsWithoutTable = sparknmt("prepare", "--tsv", "x.tsv", "--src-column", "en", "--run", "r");
    assertEquals(2, columnsWithoutTable.exitCode());
    assertTrue(columnsWithoutTable.err().contains("--src-column is for a table input"), columnsWithoutTable.err());

    Path dir = BuildDirs.fresh("prepare-command-table");
    Files.writeString(dir.resolve("pairs.json"), "{\"id\": 1, \"en\": \"one\", \"de\": \"eins\"}\n");
    String[] table = {"prepare", "--table", dir.resolve("pairs.json").toString(), "--table-format", "json",
        "--run", dir.resolve("run").toString(), "--master", "local[1]", "--tgt-column", "de", "--src-column"};
    Run missing = sparknmt(concat(table, "fr"));
    assertEquals(2, missing.exitCode());
    assertTrue(missing.err().contains("has no column fr (its columns: de, en, id)"), missing.err());
    Run notString = sparknmt(concat(table, "id"));
    assertEquals(2, notString.exitCode());
    assertTrue(notString.err().contains("column id is bigint, not a string column"), notString.err());
  }

  private static String[] concat(String[] args, String last) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = last;
    return all;
  }
}
