package org.sparknmt.prepare.clean;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
import org.sparknmt.common.clean.Normalizer;

/**
 * The validation rules of one raw pair, in order: strict UTF-8; a leading BOM and a trailing CR are
 * repaired; control characters are rejected; the text is normalized ({@link Normalizer}); empty
 * sides, over-long sides and extreme word-count ratios are rejected. Works on the raw bytes of a
 * line (without its {@code \n}), so nothing has been decoded leniently before.
 */
public final class PairValidator implements java.io.Serializable {
  private static final char BOM = '\uFEFF';

  private final int maxWords;
  private final int maxChars;
  private final double maxLengthRatio;

  public PairValidator(int maxWords, int maxChars, double maxLengthRatio) {
    this.maxWords = maxWords;
    this.maxChars = maxChars;
    this.maxLengthRatio = maxLengthRatio;
  }

  public Verdict validate(byte[] source, byte[] target) {
    Set<Repair> repairs = EnumSet.noneOf(Repair.class);
    Side src = Side.of("source", source, repairs);
    if (src.rejected != null) {
      return src.rejected;
    }
    Side tgt = Side.of("target", target, repairs);
    if (tgt.rejected != null) {
      return tgt.rejected;
    }
    if (src.text.isEmpty()) {
      return new Verdict.Rejected(RejectReason.EMPTY_SOURCE, "source is empty after normalization");
    }
    if (tgt.text.isEmpty()) {
      return new Verdict.Rejected(RejectReason.EMPTY_TARGET, "target is empty after normalization");
    }
    int srcWords = words(src.text);
    int tgtWords = words(tgt.text);
    Verdict.Rejected tooLong = tooLong("source", src.text, srcWords);
    if (tooLong == null) {
      tooLong = tooLong("target", tgt.text, tgtWords);
    }
    if (tooLong != null) {
      return tooLong;
    }
    double ratio = (double) Math.max(srcWords, tgtWords) / Math.min(srcWords, tgtWords);
    if (ratio > maxLengthRatio) {
      return new Verdict.Rejected(RejectReason.LENGTH_RATIO,
          "word counts " + srcWords + " and " + tgtWords + " differ by more than " + maxLengthRatio + "x");
    }
    return new Verdict.Kept(src.text, tgt.text, repairs);
  }

  private Verdict.Rejected tooLong(String side, String text, int words) {
    if (words > maxWords) {
      return new Verdict.Rejected(RejectReason.TOO_LONG, side + " has " + words + " words, more than " + maxWords);
    }
    int chars = text.codePointCount(0, text.length());
    if (chars > maxChars) {
      return new Verdict.Rejected(RejectReason.TOO_LONG, side + " has " + chars + " characters, more than " + maxChars);
    }
    return null;
  }

  /** Words of normalized text: single spaces separate them. */
  static int words(String normalized) {
    int words = normalized.isEmpty() ? 0 : 1;
    for (int i = 0; i < normalized.length(); i++) {
      if (normalized.charAt(i) == ' ') {
        words++;
      }
    }
    return words;
  }

  /** One side decoded, repaired and normalized, or the reason it cannot be. */
  private record Side(String text, Verdict.Rejected rejected) {
    static Side of(String side, byte[] raw, Set<Repair> repairs) {
      String text;
      try {
        text = strictUtf8().decode(ByteBuffer.wrap(raw)).toString();
      } catch (CharacterCodingException e) {
        return new Side(null, new Verdict.Rejected(RejectReason.INVALID_UTF8,
            side + " is not valid UTF-8 at byte " + firstInvalidByte(raw)));
      }
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
        repairs.add(Repair.CRLF);
      }
      if (!text.isEmpty() && text.charAt(0) == BOM) {
        text = text.substring(1);
        repairs.add(Repair.BOM);
      }
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (Character.getType(c) == Character.CONTROL && !Normalizer.isWhitespace(c)) {
          return new Side(null, new Verdict.Rejected(RejectReason.CONTROL_CHARACTER,
              side + " has control character " + String.format("U+%04X", (int) c) + " at column " + (i + 1)));
        }
      }
      String collapsed = Normalizer.collapseWhitespace(text);
      if (!collapsed.equals(text)) {
        repairs.add(Repair.WHITESPACE);
      }
      String normalized = java.text.Normalizer.normalize(collapsed, java.text.Normalizer.Form.NFC);
      if (!normalized.equals(collapsed)) {
        repairs.add(Repair.NFC);
      }
      return new Side(normalized, null);
    }

    private static CharsetDecoder strictUtf8() {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /** The 1-based offset of the first byte that does not decode. */
    private static int firstInvalidByte(byte[] raw) {
      CharsetDecoder decoder = strictUtf8();
      ByteBuffer in = ByteBuffer.wrap(raw);
      CharBuffer out = CharBuffer.allocate(raw.length + 1);
      decoder.decode(in, out, true);
      return in.position() + 1;
    }
  }
}
