package org.sparknmt.translate;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.sparknmt.base.lines.BoundedTextInputFormat;

/**
 * Lines of a UTF-8 stream the way prepare reads a corpus: only {@code \n} ends a line (a {@code \r}
 * right before it belongs to the line break; a lone {@code \r} is part of the line, where
 * normalization makes it a space), so a stray carriage return cannot add a line and shift every
 * later translation against its source. Bytes that are not UTF-8 are an error naming the line and
 * the byte, not a silent U+FFFD: a file in another encoding would otherwise be translated as
 * garbage without a word. A line is at most {@link BoundedTextInputFormat#MAX_LINE_BYTES} bytes long.
 */
final class Utf8Lines {
  private final InputStream in;
  private final String source;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  private long number;

  /** @param source names the stream in errors, e.g. "standard input" */
  Utf8Lines(InputStream in, String source) {
    this.in = new BufferedInputStream(in, 1 << 16);
    this.source = source;
  }

  /** The next line without its line break, or null at the end of the stream. */
  String next() throws IOException {
    line.reset();
    int b = in.read();
    if (b < 0) {
      return null;
    }
    number++;
    while (b >= 0 && b != '\n') {
      if (line.size() >= BoundedTextInputFormat.MAX_LINE_BYTES) {
        throw new IOException(source + ", line " + number + ": longer than " + BoundedTextInputFormat.MAX_LINE_BYTES
            + " bytes, the most a line of text input may have");
      }
      line.write(b);
      b = in.read();
    }
    byte[] bytes = line.toByteArray();
    int length = b == '\n' && bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
    return decode(ByteBuffer.wrap(bytes, 0, length));
  }

  /** Whether a line can be read without waiting for the stream. */
  boolean ready() throws IOException {
    return in.available() > 0;
  }

  private String decode(ByteBuffer bytes) throws IOException {
    CharBuffer chars = CharBuffer.allocate(bytes.remaining());
    decoder.reset();
    CoderResult result = decoder.decode(bytes, chars, true);
    if (result.isError()) {
      throw new IOException(source + ", line " + number + ": not valid UTF-8 (byte " + (bytes.position() + 1)
          + " of the line, 0x" + String.format("%02X", bytes.get(bytes.position())) + ")");
    }
    decoder.flush(chars);
    return chars.flip().toString();
  }
}
