package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * One case of the sacreBLEU reference vectors: a folder with {@code hyp.txt}, {@code ref.txt} and
 * {@code expected.json} (see shared/testvectors/README.md).
 */
public record BleuVector(String name, Path dir, List<String> hyps, List<String> refs, JsonNode expected) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The vector folder: {@code -Dnmt.vectors.bleu}, else {@code NMT_VECTORS_BLEU}, else the shared default. */
  static Path folder() {
    String dir = System.getProperty("nmt.vectors.bleu");
    if (dir == null || dir.isBlank()) {
      dir = System.getenv("NMT_VECTORS_BLEU");
    }
    return Path.of(dir == null || dir.isBlank() ? "../testvectors/bleu" : dir);
  }

  /** Every sub-folder of {@link #folder()}, in name order; none at all is an error, not a pass. */
  public static List<BleuVector> all() {
    Path folder = folder();
    try (Stream<Path> entries = Files.list(folder)) {
      List<BleuVector> vectors = entries.filter(Files::isDirectory).sorted().map(BleuVector::load).toList();
      assertFalse(vectors.isEmpty(), "no vector sub-folders in " + folder.toAbsolutePath());
      return vectors;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list BLEU vectors in " + folder.toAbsolutePath(), e);
    }
  }

  static BleuVector load(Path dir) {
    try {
      JsonNode expected = JSON.readTree(dir.resolve("expected.json").toFile());
      return new BleuVector(dir.getFileName().toString(), dir, lines(dir.resolve("hyp.txt")), lines(dir.resolve("ref.txt")), expected);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read BLEU vector " + dir, e);
    }
  }

  /** Lines as sacreBLEU's command line reads them: split at '\n' only, the final newline ending the last line. */
  static List<String> lines(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    if (text.isEmpty()) {
      return List.of();
    }
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    if (text.endsWith("\n")) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  public long[] longs(String field) {
    JsonNode array = expected.get(field);
    long[] values = new long[array.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = array.get(i).asLong();
    }
    return values;
  }

  public double number(String field) {
    return expected.get(field).asDouble();
  }

  public String text(String field) {
    return expected.get(field).asText();
  }

  @Override
  public String toString() {
    return name;
  }
}
