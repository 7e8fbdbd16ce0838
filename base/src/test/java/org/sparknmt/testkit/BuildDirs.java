package org.sparknmt.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where tests put what they write: inside the build folder, never in the user's home or /tmp. */
public final class BuildDirs {
  private BuildDirs() {}

  /** The build folder given by surefire ({@code sparknmt.build.dir}), or {@code target} when run from an IDE. */
  public static Path root() {
    return Path.of(System.getProperty("sparknmt.build.dir", "target")).toAbsolutePath();
  }

  /** A fresh, empty folder under {@code root()/test-work} named after the caller. */
  public static Path fresh(String name) {
    try {
      Path dir = root().resolve("test-work").resolve(name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The classpath of this JVM, for handing to executor JVMs (surefire passes it in full, not as a manifest jar). */
  public static String classpath() {
    return System.getProperty("java.class.path");
  }
}
