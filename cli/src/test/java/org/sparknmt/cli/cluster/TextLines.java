package org.sparknmt.cli.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The text files cluster tests hand to sparknmt and read back: sample lines, written to and read from HDFS. */
final class TextLines {
  private TextLines() {}

  /** The first {@code count} lines of {@code data/sample/FILE} (gzipped) under the project {@code root}. */
  static List<String> sample(java.nio.file.Path root, String file, int count) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(root.resolve("data/sample").resolve(file)))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().limit(count).toList();
    }
  }

  /** Writes {@code lines} to a new file {@code uri} and returns the URI. */
  static String write(FileSystem fs, String uri, List<String> lines) throws IOException {
    try (var out = fs.create(new Path(uri), false)) {
      out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return uri;
  }

  static List<String> read(FileSystem fs, String uri) throws IOException {
    try (InputStream in = fs.open(new Path(uri))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }
}
