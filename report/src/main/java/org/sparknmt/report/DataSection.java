package org.sparknmt.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.sparknmt.common.data.ManifestField;
import org.sparknmt.common.data.Split;

/** What {@code RUN/data/manifest.json} says, as tables and a length-histogram chart of the run report. */
final class DataSection {
  private DataSection() {}

  /** Read, kept, rejected, repaired, and per split the pairs, tokens, batches and padding. */
  static List<List<String>> counts(JsonNode manifest) {
    JsonNode counts = ManifestField.COUNTS.of(manifest);
    List<List<String>> rows = new ArrayList<>();
    for (ManifestField count : List.of(ManifestField.READ, ManifestField.KEPT, ManifestField.REJECTED)) {
      rows.add(List.of(count.key(), count.of(counts).asText("-")));
    }
    for (Split split : Split.values()) {
      rows.add(List.of(split.folder(), counts.path(split.folder()).asText("-")));
    }
    rows.add(List.of("vocabulary size", ManifestField.SIZE.of(ManifestField.VOCAB.of(manifest)).asText("-")));
    for (Split split : Split.values()) {
      JsonNode s = manifest.path(split.folder());
      rows.add(List.of(split.folder() + " source / target tokens",
          ManifestField.SOURCE_TOKENS.of(s).asText("-") + " / " + ManifestField.TARGET_TOKENS.of(s).asText("-")));
      rows.add(List.of(split.folder() + " batches (padding share)", ManifestField.BATCHES.of(s).asText("-")
          + " (" + String.format("%.1f%%", 100 * ManifestField.PADDING_RATIO.of(s).asDouble()) + ")"));
    }
    return rows;
  }

  /** Rejected pairs by reason and repaired pairs by rule, zero counts included (they say what was checked). */
  static List<List<String>> rejects(JsonNode manifest) {
    List<List<String>> rows = new ArrayList<>();
    JsonNode counts = ManifestField.COUNTS.of(manifest);
    ManifestField.REJECTED_BY_REASON.of(counts).fields()
        .forEachRemaining(e -> rows.add(List.of("rejected: " + e.getKey(), e.getValue().asText())));
    ManifestField.REPAIRED_BY_RULE.of(counts).fields()
        .forEachRemaining(e -> rows.add(List.of("repaired: " + e.getKey(), e.getValue().asText())));
    return rows;
  }

  /** Pairs by subword length, source and target, of one split. */
  static XYChart lengths(JsonNode manifest, Split split) {
    JsonNode node = manifest.path(split.folder());
    return Charts.lines(split.folder() + " sentence lengths", "length (subword tokens)", "pairs",
        List.of(histogram("source", ManifestField.SOURCE_LENGTH_HISTOGRAM.of(node)),
            histogram("target", ManifestField.TARGET_LENGTH_HISTOGRAM.of(node))));
  }

  private static Charts.Series histogram(String name, JsonNode counts) {
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
    counts.fields().forEachRemaining(entries::add);
    entries.sort((a, b) -> Integer.compare(Integer.parseInt(a.getKey()), Integer.parseInt(b.getKey())));
    double[] x = new double[entries.size()];
    double[] y = new double[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      x[i] = Integer.parseInt(entries.get(i).getKey());
      y[i] = entries.get(i).getValue().asDouble();
    }
    return new Charts.Series(name, x, y, false);
  }
}
