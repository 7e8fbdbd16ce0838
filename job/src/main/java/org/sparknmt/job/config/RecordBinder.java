package org.sparknmt.job.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Locale;

/**
 * Binds a HOCON section to an immutable record: component {@code dModel} reads key {@code d_model}.
 * Type errors come from Typesafe Config (naming key and origin); a record's own validation
 * ({@code IllegalArgumentException} from its compact constructor) is rethrown naming the section
 * and where its values came from.
 */
final class RecordBinder {
  private RecordBinder() {}

  static <R extends Record> R bind(Config section, String path, Class<R> type) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent component = components[i];
      String key = keyOf(component.getName());
      types[i] = component.getType();
      values[i] = read(section, path, key, component.getType(), component.getGenericType());
    }
    try {
      Constructor<R> constructor = type.getDeclaredConstructor(types);
      return constructor.newInstance(values);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException invalid) {
        throw new ConfigException.BadValue(section.origin(), path, invalid.getMessage(), invalid);
      }
      throw new IllegalStateException("cannot build " + type.getSimpleName(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
    }
  }

  /** {@code dModel -> d_model}, {@code maxTokens -> max_tokens}. */
  static String keyOf(String componentName) {
    return componentName.replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
  }

  @SuppressWarnings("unchecked")
  private static Object read(Config section, String path, String key, Class<?> type, Type generic) {
    if (type == int.class) {
      return section.getInt(key);
    } else if (type == long.class) {
      return section.getLong(key);
    } else if (type == double.class) {
      return section.getDouble(key);
    } else if (type == boolean.class) {
      return section.getBoolean(key);
    } else if (type == String.class) {
      return section.getIsNull(key) ? null : section.getString(key);
    } else if (type.isEnum()) {
      return readEnum(section, path, key, (Class<? extends Enum<?>>) type);
    } else if (type == java.util.List.class && generic instanceof ParameterizedType p
        && p.getActualTypeArguments()[0] == String.class) {
      return section.getStringList(key);
    } else if (type.isRecord()) {
      return bind(section.getConfig(key), path + "." + key, (Class<? extends Record>) type);
    }
    throw new IllegalStateException("config type " + type + " of " + path + "." + key + " is not supported");
  }

  /** Enum constants are written in lower case with dashes in HOCON: {@code inverse-sqrt -> INVERSE_SQRT}. */
  private static Object readEnum(Config section, String path, String key, Class<? extends Enum<?>> type) {
    String written = section.getString(key);
    String name = written.toUpperCase(Locale.ROOT).replace('-', '_');
    StringBuilder allowed = new StringBuilder();
    for (Enum<?> constant : type.getEnumConstants()) {
      if (constant.name().equals(name)) {
        return constant;
      }
      allowed.append(allowed.length() == 0 ? "" : ", ").append(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    throw new ConfigException.BadValue(section.getValue(key).origin(), path + "." + key,
        "'" + written + "' is not one of: " + allowed);
  }
}
