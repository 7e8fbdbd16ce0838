package org.sparknmt.base.config;

import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;

/**
 * One configuration key as {@code sparknmt-defaults.conf} declares it.
 *
 * @param path the full key, e.g. {@code train.outer.lr}
 * @param defaultValue the built-in default as {@link #text} writes it
 * @param description the comment above the key, on one line
 */
public record ConfigKey(String path, String defaultValue, String description) {

  /**
   * A value as a user writes it: scalars bare ({@code inverse-sqrt}; numbers as Typesafe Config holds
   * them, 1e-3 as 0.001 and 9.0 as 9), lists and objects as HOCON.
   */
  public static String text(ConfigValue value) {
    if (value.valueType() == ConfigValueType.LIST || value.valueType() == ConfigValueType.OBJECT) {
      return value.render(ConfigRenderOptions.concise());
    }
    return String.valueOf(value.unwrapped());
  }
}
