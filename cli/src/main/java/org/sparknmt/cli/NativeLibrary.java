package org.sparknmt.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Which ND4J native build this JVM actually loaded. Several builds can sit on the classpath (plain,
 * AVX-512 + oneDNN); JavaCPP picks one by {@code org.bytedeco.javacpp.platform.extension}, and only
 * the process's memory map says for sure which it was.
 */
public final class NativeLibrary {
  private NativeLibrary() {}

  /** The path of the loaded {@code libnd4jcpu.so}, or a note why it is not known. */
  public static String loadedFrom() {
    org.nd4j.linalg.factory.Nd4j.getBackend();
    Path maps = Path.of("/proc/self/maps");
    if (!Files.isReadable(maps)) {
      return "unknown (no /proc/self/maps)";
    }
    try (Stream<String> lines = Files.lines(maps)) {
      return lines.filter(line -> line.endsWith("libnd4jcpu.so"))
          .map(line -> line.substring(line.indexOf('/')))
          .findFirst().orElse("not loaded");
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** The build's folder name, e.g. {@code linux-x86_64-onednn-avx512}. */
  public static String build() {
    Path path = Path.of(loadedFrom());
    return path.getParent() == null ? path.toString() : path.getParent().getFileName().toString();
  }
}
