package org.sparknmt.translate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** {@code sparknmt translate} without {@code --input}: standard input to standard output in this JVM, no Spark. */
public final class StreamTranslation {
  private StreamTranslation() {}

  /**
   * Translates lines of {@code in} to {@code out} (UTF-8), line for line. Lines are batched as they
   * arrive: whatever is waiting is translated together, so a pipe gets batches and a person typing
   * gets each line's translation at once. Lines are read as {@link Utf8Lines} reads them.
   */
  public static void translate(SentenceTranslator translator, InputStream in, OutputStream out) throws IOException {
    translate(translator::translate, in, out);
  }

  /**
   * As {@link #translate(SentenceTranslator, InputStream, OutputStream)}, each block of lines turned into
   * its output by {@code translator}, which is given the lines in their order (one output per line; an
   * output may hold line breaks).
   */
  public static void translate(Function<List<String>, List<String>> translator, InputStream in, OutputStream out)
      throws IOException {
    Utf8Lines reader = new Utf8Lines(in, "standard input");
    Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    List<String> block = new ArrayList<>();
    for (String line = next(reader, block, translator, writer); line != null;
        line = next(reader, block, translator, writer)) {
      block.add(line);
      if (!reader.ready() || block.size() >= TranslatedBlocks.BLOCK) {
        write(translator.apply(block), writer);
        block.clear();
      }
    }
    write(translator.apply(block), writer);
  }

  /** The next line; on a line that is not UTF-8, the lines before it are translated and written first. */
  private static String next(Utf8Lines reader, List<String> block, Function<List<String>, List<String>> translator,
      Writer writer)
      throws IOException {
    try {
      return reader.next();
    } catch (IOException e) {
      write(translator.apply(block), writer);
      throw e;
    }
  }

  private static void write(List<String> lines, Writer writer) throws IOException {
    for (String line : lines) {
      writer.write(line);
      writer.write('\n');
    }
    writer.flush();
  }
}
