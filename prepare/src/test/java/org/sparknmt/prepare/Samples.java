package org.sparknmt.prepare;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.sparknmt.testkit.BuildDirs;

/** The shipped sample ({@code data/sample/}) and the Multi30k corpus of the shared folder. */
final class Samples {
  private Samples() {}

  /** {@code data/sample/} of the project: the build folder's parent holds it. */
  static Path sampleDir() {
    return BuildDirs.root().getParent().resolve("data/sample");
  }

  static List<String> lines(String sampleFile) throws IOException {
    return gunzip(sampleDir().resolve(sampleFile));
  }

  static List<String> gunzip(Path file) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)).stream()
          .filter(s -> !s.isEmpty()).toList();
    }
  }
}
