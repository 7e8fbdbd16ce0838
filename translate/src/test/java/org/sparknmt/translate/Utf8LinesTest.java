package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.lines.BoundedTextInputFormat;

/** Standard input's lines: a line without end is a named error once it passes the maximum, not an OutOfMemoryError. */
class Utf8LinesTest {
  @Test
  void aLineOverTheMaximumIsANamedError() throws IOException {
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 'a';
      }
    };
    Utf8Lines lines = new Utf8Lines(new SequenceInputStream(
        new ByteArrayInputStream("Ein Hund .\n".getBytes(StandardCharsets.UTF_8)), endless), "standard input");
    assertEquals("Ein Hund .", lines.next());
    IOException e = assertThrows(IOException.class, lines::next);
    assertEquals("standard input, line 2: longer than " + BoundedTextInputFormat.MAX_LINE_BYTES
        + " bytes, the most a line of text input may have", e.getMessage());
  }
}
