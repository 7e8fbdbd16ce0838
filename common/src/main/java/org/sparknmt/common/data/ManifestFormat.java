package org.sparknmt.common.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The format of {@code RUN/data/manifest.json}: prepare writes it, every later stage reads it. */
public final class ManifestFormat {
  public static final String FORMAT = "sparknmt-prepare-1";
  public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ManifestFormat() {}

  public static byte[] bytes(JsonNode manifest) {
    try {
      return JSON.writeValueAsString(manifest).concat("\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode parse(byte[] bytes, String where) {
    try {
      JsonNode node = JSON.readTree(bytes);
      if (!FORMAT.equals(node.path("format").asText())) {
        throw new IllegalArgumentException(where + " is not a " + FORMAT + " manifest");
      }
      return node;
    } catch (IOException e) {
      throw new IllegalArgumentException(where + " is not valid JSON: " + e.getMessage(), e);
    }
  }
}
