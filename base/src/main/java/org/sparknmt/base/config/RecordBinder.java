package org.sparknmt.base.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Binds a HOCON section to an immutable record: component {@code dModel} reads key {@code d_model}. A record
 * whose components are not its keys (one component made of several keys) declares {@code public static R
 * fromKeys(...)}, whose parameters are read as components are; the build compiles with {@code -parameters}
 * so that their names are known. Type errors come from Typesafe Config (naming key and origin); a record's
 * own validation ({@code IllegalArgumentException} from its compact constructor or {@code fromKeys}) is
 * rethrown naming the section and where its values came from.
 */
final class RecordBinder {
  private static final String FROM_KEYS = "fromKeys";

  private RecordBinder() {}

  /** A key of a section and the Java type it is read as. */
  record Key(String name, Class<?> type, Type generic) {}

  static <R extends Record> R bind(Config section, String path, Class<R> type) {
    Method fromKeys = fromKeys(type);
    List<Key> keys = keys(type);
    Object[] values = new Object[keys.size()];
    for (int i = 0; i < values.length; i++) {
      Key key = keys.get(i);
      values[i] = read(section, path, key.name(), key.type(), key.generic());
    }
    try {
      return type.cast(fromKeys != null ? fromKeys.invoke(null, values)
          : type.getDeclaredConstructor(keys.stream().map(Key::type).toArray(Class<?>[]::new)).newInstance(values));
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException invalid) {
        throw new ConfigException.BadValue(section.origin(), path, invalid.getMessage(), invalid);
      }
      throw new IllegalStateException("cannot build " + type.getSimpleName(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
    }
  }

  /** The keys of a section bound to {@code type}, in the order its constructor or {@code fromKeys} takes them. */
  static List<Key> keys(Class<? extends Record> type) {
    Method fromKeys = fromKeys(type);
    if (fromKeys == null) {
      return Arrays.stream(type.getRecordComponents())
          .map(c -> new Key(keyOf(c.getName()), c.getType(), c.getGenericType())).toList();
    }
    List<Key> keys = new ArrayList<>();
    for (Parameter parameter : fromKeys.getParameters()) {
      if (!parameter.isNamePresent()) {
        throw new IllegalStateException(type.getSimpleName() + "." + FROM_KEYS + "'s parameter names are missing: "
            + "compile with -parameters");
      }
      keys.add(new Key(keyOf(parameter.getName()), parameter.getType(), parameter.getParameterizedType()));
    }
    return keys;
  }

  private static Method fromKeys(Class<?> type) {
    return Arrays.stream(type.getMethods())
        .filter(m -> m.getName().equals(FROM_KEYS) && Modifier.isStatic(m.getModifiers()) && m.getReturnType() == type)
        .findFirst().orElse(null);
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
    } else if (type == List.class && generic instanceof ParameterizedType p
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
