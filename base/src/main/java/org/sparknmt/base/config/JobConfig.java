package org.sparknmt.base.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The effective configuration of one run: built-in defaults, then a HOCON file, then {@code --set
 * key=value} overrides, each layer winning over the one before. Every key must exist in the
 * defaults ({@link ConfigKeys}): an unknown or ill-typed key is an error naming the key and where it
 * was written.
 */
public final class JobConfig {
  private final Config config;

  private JobConfig(Config config) {
    this.config = config;
  }

  /**
   * Loads defaults, the optional file and the overrides, and rejects keys the defaults lack.
   *
   * @param file a HOCON file, or null for defaults only
   * @param overrides {@code key=value} strings, each parsed as one line of HOCON
   */
  public static JobConfig load(Path file, List<String> overrides) {
    Config defaults = ConfigKeys.defaults();
    Config merged = defaults;
    if (file != null) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigException.Generic("config file " + file + " does not exist or is not a file");
      }
      merged = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false))
          .withFallback(merged);
    }
    for (String override : overrides) {
      merged = parseOverride(override).withFallback(merged);
    }
    Config resolved = merged.resolve();
    rejectUnknownKeys(resolved, defaults);
    checkAcrossSections(resolved);
    return new JobConfig(resolved);
  }

  /**
   * Checks that involve keys of two sections, so that no job finds them mid-run: a kept pair has up to
   * {@code data.max_subwords} subwords a side, the model sees them plus EOS (source) or BOS (target).
   */
  private static void checkAcrossSections(Config config) {
    int maxSubwords = config.getInt("data.max_subwords");
    int maxLength = config.getInt("model.max_length");
    if (maxSubwords + 1 > maxLength) {
      throw new ConfigException.BadValue(config.getValue("data.max_subwords").origin(), "data.max_subwords",
          "data.max_subwords + 1 (" + (maxSubwords + 1) + ") must be at most model.max_length (" + maxLength
              + ", " + config.getValue("model.max_length").origin().description()
              + "): a sentence of that many subwords plus EOS would not fit the model");
    }
  }

  private static Config parseOverride(String override) {
    int eq = override.indexOf('=');
    if (eq <= 0) {
      throw new ConfigException.Generic("--set " + override + ": expected key=value, e.g. --set model.layers=6");
    }
    return ConfigFactory.parseString(override, ConfigParseOptions.defaults().setOriginDescription("--set " + override));
  }

  private static void rejectUnknownKeys(Config config, Config defaults) {
    for (Map.Entry<String, ConfigValue> entry : config.entrySet()) {
      if (!defaults.hasPathOrNull(entry.getKey())) {
        throw new ConfigException.BadPath(entry.getValue().origin(), entry.getKey(),
            "unknown key; known keys in this section: " + siblings(defaults, entry.getKey()));
      }
    }
  }

  private static String siblings(Config defaults, String key) {
    int dot = key.lastIndexOf('.');
    Config section = dot < 0 ? defaults : defaults.hasPath(key.substring(0, dot))
        ? defaults.getConfig(key.substring(0, dot)) : defaults;
    return String.join(", ", new TreeSet<>(section.root().keySet()));
  }

  /** The section at {@code path} bound to the record type {@code type}; see {@link RecordBinder}. */
  public <R extends Record> R bind(String path, Class<R> type) {
    return RecordBinder.bind(config.getConfig(path), path, type);
  }

  /** The effective value of {@code key} as {@link ConfigKey#text} writes it. */
  public String valueOf(String key) {
    return ConfigKey.text(config.getValue(key));
  }

  /** The effective configuration as HOCON, for logs and for saving beside outputs. */
  public String render() {
    return config.root().render(ConfigRenderOptions.defaults().setOriginComments(false).setJson(false));
  }
}
