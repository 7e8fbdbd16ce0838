package org.sparknmt.prepare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.data.ManifestField;
import org.sparknmt.common.data.ManifestFormat;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.ShardInfo;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.common.vocab.SpecialTokens;
import org.sparknmt.common.vocab.WordCounts;
import org.sparknmt.prepare.input.CorpusInput;

/**
 * {@code RUN/data/manifest.json}: what a prepare run read, kept and rejected (read = kept +
 * rejected, by reason), the vocabulary and its hash, per split the length histograms, token totals,
 * padding ratio and shards, the configuration, and the stage timings. Everything but the timings
 * is a function of the inputs and the configuration.
 */
final class Manifest {
  private static final ObjectMapper SNAKE = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  private Manifest() {}

  static ObjectNode build(String fingerprint, List<CorpusInput.Part> train, List<CorpusInput.Part> valid,
      PrepareConfig config, boolean allowMisaligned, Tally tally, BpeModel vocab, String vocabHash,
      WordCounts wordCounts, Map<Split, List<ShardInfo>> shards, Map<String, Long> timingsMs) {
    ObjectNode root = ManifestFormat.JSON.createObjectNode();
    root.put("format", ManifestFormat.FORMAT);
    root.put("fingerprint", fingerprint);
    ObjectNode inputs = root.putObject("inputs");
    inputs.set("train", parts(train));
    inputs.set("valid", parts(valid));
    inputs.put("allow_misaligned", allowMisaligned);

    ObjectNode counts = root.putObject(ManifestField.COUNTS.key());
    counts.put(ManifestField.READ.key(), tally.read);
    counts.put(ManifestField.KEPT.key(), tally.kept());
    counts.put(ManifestField.REJECTED.key(), tally.rejectedTotal());
    counts.set(ManifestField.REJECTED_BY_REASON.key(), ManifestFormat.JSON.valueToTree(tally.rejectedByReason()));
    counts.set(ManifestField.REPAIRED_BY_RULE.key(), ManifestFormat.JSON.valueToTree(tally.repairedByRule()));
    for (Split split : Split.values()) {
      counts.put(split.folder(), tally.of(split).pairs);
    }

    ObjectNode vocabNode = root.putObject(ManifestField.VOCAB.key());
    vocabNode.put(ManifestField.FILE.key(), RunLayout.VOCAB_FILE);
    vocabNode.put(ManifestField.SHA256.key(), vocabHash);
    vocabNode.put(ManifestField.SIZE.key(), vocab.size());
    vocabNode.put("alphabet", vocab.alphabet().length);
    vocabNode.put("merges", vocab.merges());
    vocabNode.put("word_types", wordCounts.types());
    vocabNode.put("word_types_learned_from", wordCounts.words().size());
    ObjectNode reserved = vocabNode.putObject("reserved_ids");
    reserved.put("pad", SpecialTokens.PAD);
    reserved.put("bos", SpecialTokens.BOS);
    reserved.put("eos", SpecialTokens.EOS);
    reserved.put("unk", SpecialTokens.UNK);
    reserved.put("bytes", SpecialTokens.BYTE_OFFSET + "-" + (SpecialTokens.WORD - 1));
    reserved.put("word_marker", SpecialTokens.WORD);

    for (Split split : Split.values()) {
      root.set(split.folder(), split(tally.of(split), shards.getOrDefault(split, List.of())));
    }
    root.set("config", SNAKE.valueToTree(config));
    root.set("timings_ms", ManifestFormat.JSON.valueToTree(timingsMs));
    return root;
  }

  private static ArrayNode parts(List<CorpusInput.Part> parts) {
    ArrayNode array = ManifestFormat.JSON.createArrayNode();
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
    ObjectNode node = ManifestFormat.JSON.createObjectNode();
    node.put("pairs", lengths.pairs);
    node.put(ManifestField.SOURCE_TOKENS.key(), lengths.sourceTokens);
    node.put(ManifestField.TARGET_TOKENS.key(), lengths.targetTokens);
    long real = shards.stream().mapToLong(ShardInfo::realTokens).sum();
    long padded = shards.stream().mapToLong(ShardInfo::paddedTokens).sum();
    node.put(ManifestField.BATCHES.key(), shards.stream().mapToLong(ShardInfo::batches).sum());
    node.put(ManifestField.REAL_TOKENS.key(), real);
    node.put("padded_tokens", padded);
    node.put(ManifestField.PADDING_RATIO.key(),
        padded == 0 ? 0.0 : Math.round(1e6 * (padded - real) / (double) padded) / 1e6);
    node.set(ManifestField.SOURCE_LENGTH_HISTOGRAM.key(), ManifestFormat.JSON.valueToTree(lengths.source));
    node.set(ManifestField.TARGET_LENGTH_HISTOGRAM.key(), ManifestFormat.JSON.valueToTree(lengths.target));
    ArrayNode files = node.putArray(ManifestField.SHARDS.key());
    for (ShardInfo shard : shards) {
      ObjectNode s = files.addObject();
      s.put(ManifestField.FILE.key(), shard.file());
      s.put(ManifestField.BATCHES.key(), shard.batches());
      s.put("pairs", shard.pairs());
      s.put("bytes", shard.bytes());
    }
    return node;
  }
}
