package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A JVM without the Vector API's module is told which option translation needs, before any search starts. */
class VectorModuleTest {
  /** Runs the check in a JVM of its own, started without the module. */
  public static final class Check {
    public static void main(String[] args) {
      Translator.requireVectorModule();
      System.out.println("module present");
    }
  }

  @Test
  void aJvmWithoutTheModuleIsToldTheOption() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Check.class.getName())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), out);
    assertTrue(out.contains("IllegalStateException: translation needs the JVM option --add-modules=jdk.incubator.vector"), out);
  }

  @Test
  void thisJvmHasIt() {
    Translator.requireVectorModule();
  }
}
