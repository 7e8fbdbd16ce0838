package org.sparknmt.job.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;

/** What {@code RUN/data/manifest.json} says, as tables and a length-histogram chart of the run report. */
final class DataSection {
  private DataSection() {}

  /** Read, kept, rejected, repaired, and per split the pairs, tokens, batches and padding. */
  static List<List<String>> counts(JsonNode manifest) {
    JsonNode counts = manifest.path("counts");
    List<List<String>> rows = new ArrayList<>();
    for (String key : List.of("read", "kept", "rejected", "train", "valid")) {
      rows.add(List.of(key, counts.path(key).asText("-")));
    }
    rows.add(List.of("vocabulary size", manifest.path("vocab").path("size").asText("-")));
    for (String split : List.of("train", "valid")) {
      JsonNode s = manifest.path(split);
      rows.add(List.of(split + " source / target tokens",
          s.path("source_tokens").asText("-") + " / " + s.path("target_tokens").asText("-")));
      rows.add(List.of(split + " batches (padding share)",
          s.path("batches").asText("-") + " (" + String.format("%.1f%%", 100 * s.path("padding_ratio").asDouble()) + ")"));
    }
    return rows;
  }

  /** Rejected pairs by reason and repaired pairs by rule, zero counts included (they say what was checked). */
  static List<List<String>> rejects(JsonNode manifest) {
    List<List<String>> rows = new ArrayList<>();
    manifest.path("counts").path("rejected_by_reason").fields()
        .forEachRemaining(e -> rows.add(List.of("rejected: " + e.getKey(), e.getValue().asText())));
    manifest.path("counts").path("repaired_by_rule").fields()
        .forEachRemaining(e -> rows.add(List.of("repaired: " + e.getKey(), e.getValue().asText())));
    return rows;
  }

  /** Pairs by subword length, source and target, of one split. */
  static XYChart lengths(JsonNode manifest, String split) {
    JsonNode node = manifest.path(split);
    return Charts.lines(split + " sentence lengths", "length (subword tokens)", "pairs",
        List.of(histogram("source", node.path("source_length_histogram")),
            histogram("target", node.path("target_length_histogram"))));
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
