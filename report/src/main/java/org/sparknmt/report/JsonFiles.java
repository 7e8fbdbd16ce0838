package org.sparknmt.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The JSON files a run holds, read from any Hadoop file system; a file that is absent reads as nothing. */
final class JsonFiles {
  static final ObjectMapper JSON = new ObjectMapper();

  private JsonFiles() {}

  /** The objects of a JSON-lines file ({@code RUN/metrics/*.jsonl}); blank lines are skipped. */
  static List<JsonNode> lines(Path file, Configuration hadoop) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    FileSystem fs = file.getFileSystem(hadoop);
    if (!fs.exists(file)) {
      return out;
    }
    try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      int number = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        number++;
        if (!line.isBlank()) {
          out.add(parse(line, file, number));
        }
      }
    }
    return out;
  }

  /**
   * The objects of a JSON file: one object, an array of objects, or one object a line. Evaluation
   * results ({@code RUN/eval/*.json}) may come in any of these forms.
   */
  static List<JsonNode> objects(Path file, Configuration hadoop) throws IOException {
    String text;
    try (var in = file.getFileSystem(hadoop).open(file)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    JsonNode whole;
    try {
      whole = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return lines(file, hadoop);
    }
    List<JsonNode> out = new ArrayList<>();
    if (whole != null && whole.isArray()) {
      whole.forEach(out::add);
    } else if (whole != null && whole.isObject()) {
      out.add(whole);
    } else {
      throw new IllegalArgumentException(file + ": expected a JSON object or an array of objects");
    }
    return out;
  }

  private static JsonNode parse(String line, Path file, int number) {
    try {
      JsonNode node = JSON.readTree(line);
      if (!node.isObject()) {
        throw new IllegalArgumentException(file + " line " + number + ": not a JSON object: " + line);
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + " line " + number + ": not valid JSON: " + e.getOriginalMessage(), e);
    }
  }
}
