package org.sparknmt.common.clean;

/**
 * The text normalization of kept sentences: every whitespace character (tab, NBSP, the Unicode
 * spaces) becomes one ASCII space, runs collapse, ends are trimmed; then Unicode NFC. Whitespace
 * comes first because NFC never creates whitespace, so the result is a fixed point:
 * {@code normalize(normalize(s)) == normalize(s)}. Everything else, zero-width joiners included, is kept.
 */
public final class Normalizer {
  private Normalizer() {}

  public static String normalize(String text) {
    return java.text.Normalizer.normalize(collapseWhitespace(text), java.text.Normalizer.Form.NFC);
  }

  /** Single spaces between words, none at the ends. */
  public static String collapseWhitespace(String text) {
    StringBuilder out = new StringBuilder(text.length());
    boolean pendingSpace = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (isWhitespace(cp)) {
        pendingSpace = out.length() > 0;
      } else {
        if (pendingSpace) {
          out.append(' ');
          pendingSpace = false;
        }
        out.appendCodePoint(cp);
      }
    }
    return out.toString();
  }

  /** Java's whitespace plus the no-break spaces (U+00A0, U+2007, U+202F), which Java leaves out. */
  public static boolean isWhitespace(int cp) {
    return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
  }
}
