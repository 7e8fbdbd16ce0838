package org.sparknmt.base.config;

import java.util.List;
import java.util.Optional;

/**
 * The declared keys written out for people, as Spark ML's {@code explainParams}: one line a key with
 * its description and default, and the effective value of a run's configuration when there is one;
 * or rows of the Markdown key tables in docs/.
 */
public final class ConfigExplanation {
  /** The header of a Markdown key table; {@link #markdownRow} writes its rows. */
  public static final String MARKDOWN_HEADER = "| key | default | meaning |\n| --- | --- | --- |\n";

  private ConfigExplanation() {}

  /** {@code key: description (default: D)}, or {@code (default: D, current: C)} with a configuration. */
  public static String text(List<ConfigKey> keys, Optional<JobConfig> effective) {
    StringBuilder out = new StringBuilder();
    for (ConfigKey key : keys) {
      out.append(key.path()).append(": ").append(key.description()).append(" (default: ").append(key.defaultValue());
      effective.ifPresent(config -> out.append(", current: ").append(config.valueOf(key.path())));
      out.append(")\n");
    }
    return out.toString();
  }

  /** A Markdown table of {@code keys}. */
  public static String markdown(List<ConfigKey> keys) {
    StringBuilder out = new StringBuilder(MARKDOWN_HEADER);
    keys.forEach(key -> out.append(markdownRow(key)).append('\n'));
    return out.toString();
  }

  /** {@code | `key` | default | description |}: the one way docs/ write a key's row. */
  public static String markdownRow(ConfigKey key) {
    return "| `" + key.path() + "` | " + key.defaultValue() + " | " + key.description() + " |";
  }
}
