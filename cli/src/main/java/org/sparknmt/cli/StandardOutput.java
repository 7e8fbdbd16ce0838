package org.sparknmt.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output that says when it failed. {@link System#out} is a {@link PrintStream}, which
 * swallows write errors: with {@code > /dev/full} (a full disk) or a closed pipe every line would be
 * lost and the command would still exit 0. Data goes through {@link #open}, whose failed writes
 * throw; the one-line summaries printed to {@code System.out} are checked by {@link #failure} before
 * the command exits.
 */
public final class StandardOutput {
  private StandardOutput() {}

  /** File descriptor 1, unbuffered; a write that fails throws an error naming standard output. */
  public static OutputStream open() {
    return named(new FileOutputStream(FileDescriptor.out), "standard output");
  }

  /** {@code out}, whose failed writes and flushes throw an error starting with {@code name}. */
  static OutputStream named(OutputStream out, String name) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        try {
          out.write(b);
        } catch (IOException e) {
          throw failed(name, e);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        try {
          out.write(b, off, len);
        } catch (IOException e) {
          throw failed(name, e);
        }
      }

      @Override
      public void flush() throws IOException {
        try {
          out.flush();
        } catch (IOException e) {
          throw failed(name, e);
        }
      }
    };
  }

  private static IOException failed(String name, IOException e) {
    return new IOException("writing " + name + " failed: " + e.getMessage() + "; the output is incomplete", e);
  }

  /** Why what was printed to {@code out} did not all arrive, or null when it did (flushes it first). */
  public static String failure(PrintStream out) {
    out.flush();
    return out.checkError()
        ? "writing standard output failed (a full disk, a closed pipe or an I/O error): the output is incomplete"
        : null;
  }
}
