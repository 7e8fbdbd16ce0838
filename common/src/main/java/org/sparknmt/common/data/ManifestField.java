package org.sparknmt.common.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * The fields of {@code RUN/data/manifest.json} that the manifest's writer and its readers (the
 * prepared data, the run report) share, named once. The file spells them in snake_case ({@link #key});
 * renaming one changes the manifest's format.
 */
public enum ManifestField {
  /** What was read, kept and rejected; holds READ, KEPT, REJECTED, the two reason tables and the pairs per split. */
  COUNTS,
  READ,
  KEPT,
  REJECTED,
  REJECTED_BY_REASON,
  REPAIRED_BY_RULE,
  /** The vocabulary: its SHA256 and SIZE among others. */
  VOCAB,
  SHA256,
  SIZE,
  // per split (under the split's folder name)
  SOURCE_TOKENS,
  TARGET_TOKENS,
  BATCHES,
  REAL_TOKENS,
  PADDING_RATIO,
  SOURCE_LENGTH_HISTOGRAM,
  TARGET_LENGTH_HISTOGRAM,
  /** The split's shard files, each with its FILE name. */
  SHARDS,
  FILE;

  /** The name as the manifest writes it: {@code SOURCE_TOKENS -> source_tokens}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** This field of {@code node}: a missing node where it has none, as Jackson's {@code path}. */
  public JsonNode of(JsonNode node) {
    return node.path(key());
  }
}
