package org.sparknmt.datasets.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.sparknmt.datasets.PrepareConfig;
import org.sparknmt.datasets.vocab.BpeModel;

/**
 * {@code RUN/data/manifest.json}: what a prepare run read, kept and rejected (read = kept +
 * rejected, by reason), the vocabulary and its hash, per split the length histograms, token totals,
 * padding ratio and shards, the configuration, and the stage timings. Everything but the timings
 * is a function of the inputs and the configuration.
 */
final class Manifest {
  static final String FORMAT = "sparknmt-prepare-1";
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper SNAKE = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  private Manifest() {}

  static ObjectNode build(String fingerprint, List<CorpusInput.Part> train, List<CorpusInput.Part> valid,
      PrepareConfig config, boolean allowMisaligned, Tally tally, BpeModel vocab, String vocabHash,
      Map<Split, List<ShardInfo>> shards, Map<String, Long> timingsMs) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("fingerprint", fingerprint);
    ObjectNode inputs = root.putObject("inputs");
    inputs.set("train", parts(train));
    inputs.set("valid", parts(valid));
    inputs.put("allow_misaligned", allowMisaligned);

    ObjectNode counts = root.putObject("counts");
    counts.put("read", tally.read);
    counts.put("kept", tally.kept());
    counts.put("rejected", tally.rejectedTotal());
    counts.set("rejected_by_reason", JSON.valueToTree(tally.rejectedByReason()));
    counts.set("repaired_by_rule", JSON.valueToTree(tally.repairedByRule()));
    counts.put("train", tally.train.pairs);
    counts.put("valid", tally.valid.pairs);

    ObjectNode vocabNode = root.putObject("vocab");
    vocabNode.put("file", "vocab/bpe.json");
    vocabNode.put("sha256", vocabHash);
    vocabNode.put("size", vocab.size());
    vocabNode.put("alphabet", vocab.alphabet().length);
    vocabNode.put("merges", vocab.merges());
    ObjectNode reserved = vocabNode.putObject("reserved_ids");
    reserved.put("pad", 0);
    reserved.put("bos", 1);
    reserved.put("eos", 2);
    reserved.put("unk", 3);
    reserved.put("bytes", "4-259");
    reserved.put("word_marker", 260);

    for (Split split : Split.values()) {
      root.set(split.folder(), split(tally.of(split), shards.getOrDefault(split, List.of())));
    }
    root.set("config", SNAKE.valueToTree(config));
    root.set("timings_ms", JSON.valueToTree(timingsMs));
    return root;
  }

  private static ArrayNode parts(List<CorpusInput.Part> parts) {
    ArrayNode array = JSON.createArrayNode();
    for (CorpusInput.Part part : parts) {
      ObjectNode node = array.addObject();
      if (part.table() != null) {
        node.put("table", part.table().uri());
        node.put("format", part.table().format().toString());
        node.put("source_column", part.table().sourceColumn());
        node.put("target_column", part.table().targetColumn());
        continue;
      }
      node.put(part.tsv() ? "tsv" : "source", part.source());
      if (!part.tsv()) {
        node.put("target", part.target());
      }
    }
    return array;
  }

  private static ObjectNode split(Tally.Lengths lengths, List<ShardInfo> shards) {
    ObjectNode node = JSON.createObjectNode();
    node.put("pairs", lengths.pairs);
    node.put("source_tokens", lengths.sourceTokens);
    node.put("target_tokens", lengths.targetTokens);
    long real = shards.stream().mapToLong(ShardInfo::realTokens).sum();
    long padded = shards.stream().mapToLong(ShardInfo::paddedTokens).sum();
    node.put("batches", shards.stream().mapToLong(ShardInfo::batches).sum());
    node.put("real_tokens", real);
    node.put("padded_tokens", padded);
    node.put("padding_ratio", padded == 0 ? 0.0 : Math.round(1e6 * (padded - real) / (double) padded) / 1e6);
    node.set("source_length_histogram", JSON.valueToTree(lengths.source));
    node.set("target_length_histogram", JSON.valueToTree(lengths.target));
    ArrayNode files = node.putArray("shards");
    for (ShardInfo shard : shards) {
      ObjectNode s = files.addObject();
      s.put("file", shard.file());
      s.put("batches", shard.batches());
      s.put("pairs", shard.pairs());
      s.put("bytes", shard.bytes());
    }
    return node;
  }

  static byte[] bytes(JsonNode manifest) {
    try {
      return JSON.writeValueAsString(manifest).concat("\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode parse(byte[] bytes, String where) {
    try {
      JsonNode node = JSON.readTree(bytes);
      if (!FORMAT.equals(node.path("format").asText())) {
        throw new IllegalArgumentException(where + " is not a " + FORMAT + " manifest");
      }
      return node;
    } catch (IOException e) {
      throw new IllegalArgumentException(where + " is not valid JSON: " + e.getMessage(), e);
    }
  }
}
