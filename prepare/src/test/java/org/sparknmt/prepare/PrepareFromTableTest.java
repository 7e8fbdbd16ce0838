package org.sparknmt.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.files.HadoopFiles;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;

/**
 * {@code prepare --table}: a Parquet table on {@code hdfs://} with an id and two text columns
 * prepares exactly as the same pairs from two text files (same vocabulary, byte-identical shards),
 * and its bad rows, a null cell among them, are rejected naming the table, the row and the reason.
 * About 50 s on two cores (two executor JVMs, two prepares).
 */
@Tag("slow")
class PrepareFromTableTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();
  private static final PrepareConfig CONFIG =
      new PrepareConfig(400, 0.9999, 200_000, 250, 1500, 9.0, 254, 2048, 0, 2, 2, 0.1, 17);
  private static final int PAIRS = 200;
  private static final int EMPTY_ROW = 51;
  private static final int LONG_ROW = 101;
  /** Last, so every other row's number equals its line number in the text files. */
  private static final int NULL_ROW = PAIRS + 1;

  private static String table;
  private static FileSystem fs;

  /** The sample's first pairs, row 51 with an empty source and row 101 over data.max_words, then a null target. */
  @BeforeAll
  static void writeTableAndTextFiles() throws IOException {
    fs = FileSystem.get(HDFS.hdfs().uri(), SPARK.sc().hadoopConfiguration());
    List<String> en = new ArrayList<>(Samples.lines("train.en.gz").subList(0, PAIRS));
    List<String> de = new ArrayList<>(Samples.lines("train.de.gz").subList(0, PAIRS));
    en.set(EMPTY_ROW - 1, "");
    en.set(LONG_ROW - 1, "word ".repeat(CONFIG.maxWords() + 1).trim());
    write("/text/train.en", en);
    write("/text/train.de", de);

    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < PAIRS; i++) {
      rows.add(RowFactory.create((long) i + 1, en.get(i), de.get(i)));
    }
    rows.add(RowFactory.create((long) NULL_ROW, "A sentence without its translation .", null));
    StructType schema = new StructType().add("id", DataTypes.LongType).add("en", DataTypes.StringType)
        .add("de", DataTypes.StringType);
    table = HDFS.path("/tables/corpus.parquet");
    SparkSession spark = SparkSession.builder().config(SPARK.sc().getConf()).getOrCreate();
    // one file, so Spark reads the rows back in this order
    TableFormat.PARQUET.write(spark.createDataFrame(rows, schema).coalesce(1), table, false);
  }

  @Test
  void aTablePreparesAsTheSamePairsFromTextFilesAndRejectsItsBadRowsByRow() throws IOException {
    PrepareJob.Result fromTable = prepare(new CorpusInput.Table(table, TableFormat.PARQUET, "en", "de"), "/runs/table");
    PrepareJob.Result fromText = prepare(
        new CorpusInput.Aligned(HDFS.path("/text/train.en"), HDFS.path("/text/train.de")), "/runs/text");

    JsonNode tableCounts = fromTable.manifest().get("counts");
    JsonNode textCounts = fromText.manifest().get("counts");
    assertEquals(PAIRS + 1, tableCounts.get("read").asLong());
    assertEquals(PAIRS - 2, tableCounts.get("kept").asLong());
    for (String count : List.of("kept", "train", "valid")) {
      assertEquals(textCounts.get(count).asLong(), tableCounts.get(count).asLong(), count);
    }
    assertEquals(fromText.manifest().get("vocab").get("sha256").asText(),
        fromTable.manifest().get("vocab").get("sha256").asText());
    for (Split split : Split.values()) {
      List<String> tableShards = shards(fromTable, split);
      assertEquals(shards(fromText, split).stream().map(s -> s.replace("/runs/text/", "/runs/table/")).toList(),
          tableShards, split.folder());
      for (String shard : tableShards) {
        assertArrayEquals(read(shard.replace("/runs/table/", "/runs/text/")), read(shard), shard);
      }
    }

    JsonNode input = fromTable.manifest().get("inputs").get("train").get(0);
    assertEquals(table, input.get("table").asText());
    assertEquals("parquet", input.get("format").asText());
    assertEquals("en", input.get("source_column").asText());
    assertEquals("de", input.get("target_column").asText());

    List<JsonNode> rejects = rejects(fromTable);
    assertEquals(List.of(EMPTY_ROW, LONG_ROW, NULL_ROW), rejects.stream().map(r -> r.get("row").asInt()).toList());
    assertEquals(List.of("empty-source", "too-long", "null-cell"),
        rejects.stream().map(r -> r.get("reason").asText()).toList());
    JsonNode nullCell = rejects.get(2);
    assertEquals(table, nullCell.get("table").asText());
    assertEquals("en", nullCell.get("source_column").asText());
    assertEquals("column de is null", nullCell.get("detail").asText());
    assertEquals("A sentence without its translation .", nullCell.get("source").asText());
    assertTrue(nullCell.get("target").isNull(), nullCell.toString());
    assertEquals(List.of(EMPTY_ROW, LONG_ROW), rejects(fromText).stream().map(r -> r.get("line").asInt()).toList());
  }

  @Test
  void aMissingOrNonStringColumnIsAnErrorNamingIt() {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> prepare(new CorpusInput.Table(table, TableFormat.PARQUET, "en", "fr"), "/runs/missing"));
    assertEquals("table " + table + " has no column fr (its columns: id, en, de)", missing.getMessage());
    IllegalArgumentException notString = assertThrows(IllegalArgumentException.class,
        () -> prepare(new CorpusInput.Table(table, TableFormat.PARQUET, "id", "de"), "/runs/not-string"));
    assertEquals("table " + table + ": column id is bigint, not a string column of sentences", notString.getMessage());
  }

  private static PrepareJob.Result prepare(CorpusInput input, String run) throws IOException {
    return PrepareJob.run(SPARK.sc(), new PrepareJob.Request(input, null, HDFS.path(run), CONFIG, false, false));
  }

  private static List<String> shards(PrepareJob.Result result, Split split) throws IOException {
    Path folder = new Path(result.data(), split.folder());
    return Arrays.stream(fs.listStatus(folder)).map(FileStatus::getPath).map(Path::toString).sorted().toList();
  }

  private static List<JsonNode> rejects(PrepareJob.Result result) throws IOException {
    String text = new String(read(result.data() + "/rejects/part-00000"), StandardCharsets.UTF_8);
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> rejects = new ArrayList<>();
    for (String line : text.split("\n")) {
      rejects.add(json.readTree(line));
    }
    return rejects;
  }

  private static byte[] read(String file) throws IOException {
    return HadoopFiles.read(new Path(file), SPARK.sc().hadoopConfiguration());
  }

  private static void write(String path, List<String> lines) throws IOException {
    HadoopFiles.write(new Path(HDFS.path(path)), (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8),
        SPARK.sc().hadoopConfiguration());
  }
}
