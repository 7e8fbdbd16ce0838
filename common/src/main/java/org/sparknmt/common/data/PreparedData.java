package org.sparknmt.common.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.HadoopFiles;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.common.vocab.BpeModel;

/**
 * The output of a completed prepare run, for the jobs after it: the manifest, the vocabulary
 * (checked against the hash in the manifest and beside the file), and the shards of each split as
 * an RDD of {@link Batch}es or {@link MultiDataSet}s read on the executors.
 */
public final class PreparedData {
  private final Path data;
  private final JsonNode manifest;
  private final BpeModel vocabulary;

  private PreparedData(Path data, JsonNode manifest, BpeModel vocabulary) {
    this.data = data;
    this.manifest = manifest;
    this.vocabulary = vocabulary;
  }

  /** Opens {@code RUN/data}; fails when prepare has not completed there or the vocabulary's hash does not match. */
  public static PreparedData open(String runUri, Configuration conf) throws IOException {
    Path data = RunLayout.of(runUri).data();
    Path manifestPath = RunLayout.manifest(data);
    if (!manifestPath.getFileSystem(conf).exists(manifestPath)) {
      throw new UsageException(manifestPath + " does not exist: run 'sparknmt prepare --run " + runUri
          + "' first (a folder without its manifest is an incomplete prepare)");
    }
    JsonNode manifest = ManifestFormat.parse(HadoopFiles.read(manifestPath, conf), manifestPath.toString());
    String expected = ManifestField.SHA256.of(ManifestField.VOCAB.of(manifest)).asText();
    return new PreparedData(data, manifest, readVocabulary(data, expected, conf));
  }

  /**
   * Reads {@code vocab/bpe.json} and checks its SHA-256 against {@code expectedSha256} (from a
   * manifest or a checkpoint) and against the hash file written beside it.
   */
  public static BpeModel readVocabulary(Path data, String expectedSha256, Configuration conf) throws IOException {
    Path file = RunLayout.vocabFile(data);
    byte[] bytes = HadoopFiles.read(file, conf);
    String actual = BpeModel.sha256(bytes);
    String recorded = new String(HadoopFiles.read(RunLayout.vocabHashFile(data), conf), StandardCharsets.US_ASCII)
        .split("\\s+")[0];
    if (!actual.equals(expectedSha256) || !actual.equals(recorded)) {
      throw new IllegalStateException("vocabulary " + file + " has SHA-256 " + actual + " but " + expectedSha256
          + " was expected (" + RunLayout.vocabHashFile(data).getName() + " says " + recorded
          + "): it was changed after prepare; re-run prepare or restore it");
    }
    return BpeModel.fromJson(bytes);
  }

  public JsonNode manifest() {
    return manifest;
  }

  public BpeModel vocabulary() {
    return vocabulary;
  }

  public String vocabularySha256() {
    return ManifestField.SHA256.of(ManifestField.VOCAB.of(manifest)).asText();
  }

  /**
   * The most subword tokens of a kept sentence, source or target, train or valid (from the manifest's
   * length histograms; BOS and EOS not counted).
   */
  public int longestSentence() {
    int longest = 0;
    for (Split split : Split.values()) {
      JsonNode node = manifest.path(split.folder());
      for (ManifestField side : List.of(ManifestField.SOURCE_LENGTH_HISTOGRAM, ManifestField.TARGET_LENGTH_HISTOGRAM)) {
        for (var lengths = side.of(node).fieldNames(); lengths.hasNext(); ) {
          longest = Math.max(longest, Integer.parseInt(lengths.next()));
        }
      }
    }
    return longest;
  }

  /** The shard files of {@code split} in name order, as listed in the manifest. */
  public List<String> shards(Split split) {
    List<String> files = new ArrayList<>();
    for (JsonNode shard : ManifestField.SHARDS.of(manifest.path(split.folder()))) {
      files.add(new Path(RunLayout.shards(data, split.folder()), ManifestField.FILE.of(shard).asText()).toString());
    }
    return files;
  }

  /** The batches of {@code split}, one RDD partition per shard, read on the executors one batch at a time. */
  public JavaRDD<Batch> batches(JavaSparkContext sc, Split split) {
    return indexedBatches(sc, split, Integer.MAX_VALUE).rdd().values();
  }

  /**
   * The batches of {@code split} keyed by their index in it, in partitions of at most
   * {@code perPartition} batches ({@link IndexedBatches}).
   */
  public IndexedBatches indexedBatches(JavaSparkContext sc, Split split, int perPartition) {
    List<Long> counts = new ArrayList<>();
    for (JsonNode shard : ManifestField.SHARDS.of(manifest.path(split.folder()))) {
      JsonNode batches = ManifestField.BATCHES.of(shard);
      if (!batches.canConvertToLong()) {
        throw new IllegalStateException(RunLayout.manifest(data) + ": shard " + ManifestField.FILE.of(shard).asText()
            + " of " + split.folder() + " has no batch count");
      }
      counts.add(batches.asLong());
    }
    return IndexedBatches.of(sc, shards(split), counts, perPartition);
  }

  /** The batches of {@code split} as MultiDataSets ({@link MultiDataSets} has the layout). */
  public JavaRDD<MultiDataSet> multiDataSets(JavaSparkContext sc, Split split) {
    return batches(sc, split).map(MultiDataSets::of);
  }
}
