package org.sparknmt.base.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every configuration key, declared once in the classpath resource {@value #DEFAULTS}: the value
 * written there is the key's default and the comment directly above it its description (Typesafe
 * Config keeps comments as the value's origin). The defaults of a run, {@code sparknmt config
 * --explain}, the {@code --help} of options that override a key and the key tables in docs/ all
 * come from it, so a key is described in one place.
 */
public final class ConfigKeys {
  /** The classpath resource holding every key with its default value and description. */
  public static final String DEFAULTS = "sparknmt-defaults.conf";

  private ConfigKeys() {}

  /** The built-in defaults, with the descriptions as the values' origin comments. */
  public static Config defaults() {
    return ConfigFactory.parseResourcesAnySyntax(ConfigKeys.class.getClassLoader(), DEFAULTS,
        ConfigParseOptions.defaults().setAllowMissing(false));
  }

  /** Every key, in the order the defaults file declares them. */
  public static List<ConfigKey> all() {
    return defaults().entrySet().stream()
        .sorted(Comparator.comparingInt(entry -> entry.getValue().origin().lineNumber()))
        .map(entry -> declared(entry.getKey(), entry.getValue()))
        .toList();
  }

  private static ConfigKey declared(String path, ConfigValue value) {
    String description = oneLine(value.origin().comments());
    if (description.isEmpty()) {
      throw new IllegalStateException(DEFAULTS + ": key " + path + " has no description (a comment directly above it)");
    }
    return new ConfigKey(path, ConfigKey.text(value), description);
  }

  private static String oneLine(List<String> comments) {
    return comments.stream().map(String::strip).collect(Collectors.joining(" ")).strip();
  }
}
