package org.sparknmt.common.scores;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Python 3's {@code str.isspace}, {@code str.split()}, {@code str.rstrip()} and {@code f"{x:.2f}"},
 * on which sacreBLEU's tokenizers, chrF and printed scores rely. Java's {@link Character#isWhitespace} differs (it excludes U+00A0,
 * U+2007 and U+202F, and includes none of U+0085), which would change token and character counts.
 */
public final class PythonText {
  private PythonText() {}

  /** Python's {@code str.isspace} for one code point: Unicode White_Space plus U+001C..U+001F. */
  public static boolean isSpace(int cp) {
    if (cp < 128) {
      return cp == ' ' || (cp >= '\t' && cp <= '\r') || (cp >= 0x1C && cp <= 0x1F);
    }
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A)
        || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
  }

  /** {@code s.split()}: the maximal runs of non-whitespace, in order. */
  public static List<String> split(String s) {
    List<String> words = new ArrayList<>();
    int start = -1;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (isSpace(cp)) {
        if (start >= 0) {
          words.add(s.substring(start, i));
          start = -1;
        }
      } else if (start < 0) {
        start = i;
      }
      i += Character.charCount(cp);
    }
    if (start >= 0) {
      words.add(s.substring(start));
    }
    return words;
  }

  /** {@code s.rstrip()}: without trailing whitespace. */
  public static String rstrip(String s) {
    int end = s.length();
    while (end > 0) {
      int cp = s.codePointBefore(end);
      if (!isSpace(cp)) {
        break;
      }
      end -= Character.charCount(cp);
    }
    return s.substring(0, end);
  }

  /** The code points of {@code ''.join(s.split())}: every whitespace character removed, as chrF does by default. */
  public static int[] codePointsWithoutSpaces(String s) {
    int[] out = new int[s.length()];
    int length = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!isSpace(cp)) {
        out[length++] = cp;
      }
      i += Character.charCount(cp);
    }
    return length == out.length ? out : Arrays.copyOf(out, length);
  }

  /**
   * {@code f"{x:.<digits>f}"}: the exact binary value rounded half-to-even. Java's {@code %.2f}
   * rounds the shortest decimal form half-up instead, printing 0.125 as 0.13 where Python prints 0.12.
   */
  public static String fixed(double x, int digits) {
    return new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
  }
}
