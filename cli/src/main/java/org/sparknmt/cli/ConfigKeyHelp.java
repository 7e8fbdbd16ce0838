package org.sparknmt.cli;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import org.sparknmt.base.config.ConfigKey;

/**
 * The {@code --help} text of options that override a configuration key, made from the key's
 * declaration: an option written {@code @Option(names = "--beam", descriptionKey = "translate.beam")}
 * reads "Beam width ... Overrides translate.beam (built-in default: 4)." Installed as picocli's
 * resource bundle of the whole command line, so no option repeats a key's description or default.
 */
public final class ConfigKeyHelp extends ResourceBundle {
  private final Map<String, String> texts = new LinkedHashMap<>();

  public ConfigKeyHelp(List<ConfigKey> keys) {
    for (ConfigKey key : keys) {
      String description = key.description();
      texts.put(key.path(), description.substring(0, 1).toUpperCase(Locale.ROOT) + description.substring(1)
          + ". Overrides " + key.path() + " (built-in default: " + key.defaultValue() + ").");
    }
  }

  @Override
  protected Object handleGetObject(String key) {
    return texts.get(key);
  }

  @Override
  public Enumeration<String> getKeys() {
    return Collections.enumeration(texts.keySet());
  }
}
