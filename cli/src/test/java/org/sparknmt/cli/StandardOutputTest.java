package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Standard output on a full disk ({@code /dev/full}): an error, never exit 0 with the output lost. */
class StandardOutputTest {
  private static final File FULL = new File("/dev/full");

  @Test
  void aWriteToAFullDiskThrowsNamingStandardOutput() throws IOException {
    try (OutputStream out = StandardOutput.named(new FileOutputStream(FULL), "standard output")) {
      IOException e = assertThrows(IOException.class, () -> out.write("Hallo Welt\n".getBytes(StandardCharsets.UTF_8)));
      assertTrue(e.getMessage().startsWith("writing standard output failed: No space left on device"), e.getMessage());
    }
  }

  @Test
  void aPrintStreamsSwallowedErrorIsReported() throws IOException {
    try (PrintStream full = new PrintStream(new FileOutputStream(FULL), false, StandardCharsets.UTF_8)) {
      full.println("translate: 3 lines");
      assertTrue(StandardOutput.failure(full).startsWith("writing standard output failed"));
    }
    PrintStream fine = new PrintStream(new ByteArrayOutputStream(), false, StandardCharsets.UTF_8);
    fine.println("translate: 3 lines");
    assertNull(StandardOutput.failure(fine));
  }

  /** The whole command as a shell runs it: {@code sparknmt config > /dev/full} fails, naming standard output. */
  @Test
  void aCommandWhoseSummaryIsLostFails() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "config")).redirectOutput(FULL).start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS));
    assertEquals(ExitCodes.FAILURE, process.exitValue(), err);
    assertTrue(err.strip().endsWith("sparknmt: writing standard output failed (a full disk, a closed pipe or an I/O error): "
        + "the output is incomplete"), err);
  }
}
