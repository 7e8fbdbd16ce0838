package org.sparknmt.common.scores;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code 13a} tokenizer of mteval-v13a.pl as sacreBLEU applies it (its default for BLEU): SGML
 * entities unescaped, then punctuation and symbols split off, periods and commas split off unless
 * beside a digit, and a dash split off after a digit.
 *
 * <p>sacreBLEU applies four regular expressions one after the other, each only inserting spaces. Each
 * is a two-character pattern matched left to right without overlap, so each is one scan over a char
 * array here: the result is the same string, without a regex engine and its garbage per line (the
 * tokenizer was most of an evaluation's time). The patterns, in sacreBLEU's terms:
 * {@code ([\{-\~\[-\` -\&\(-\+\:-\@\/])} to {@code " \1 "}, {@code ([^0-9])([\.,])} to
 * {@code "\1 \2 "}, {@code ([\.,])([^0-9])} to {@code " \1 \2"}, {@code ([0-9])(-)} to {@code "\1 \2 "}.
 */
public final class Tokenizer13a {
  private Tokenizer13a() {}

  /** The tokens of one line, after sacreBLEU's preprocessing ({@code rstrip}, case kept). */
  public static List<String> tokenize(String line) {
    String s = PythonText.rstrip(line);
    if (s.indexOf('<') >= 0) {
      s = s.replace("<skipped>", "");
    }
    if (s.indexOf('\n') >= 0) {
      s = s.replace("-\n", "").replace("\n", " ");
    }
    if (s.indexOf('&') >= 0) {
      // One after the other, as sacreBLEU does: "&amp;lt;" ends as "<".
      s = s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    }
    Chars chars = splitDashAfterDigit(splitPeriodCommaBeforeNonDigit(splitPeriodCommaAfterNonDigit(splitSymbols(s))));
    return chars.split();
  }

  /** {@code {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ /}: each made a token. */
  static boolean isSymbol(char c) {
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') || (c >= '(' && c <= '+')
        || (c >= ':' && c <= '@') || c == '/';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isPeriodOrComma(char c) {
    return c == '.' || c == ',';
  }

  /** " " + s + " " with " c " for each symbol c; the padding lets a final "9." or an initial ".9" split off its period. */
  private static Chars splitSymbols(String s) {
    Chars out = new Chars(3 * s.length() + 2);
    out.add(' ');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isSymbol(c)) {
        out.add(' ').add(c).add(' ');
      } else {
        out.add(c);
      }
    }
    return out.add(' ');
  }

  /** {@code ([^0-9])([.,])} to {@code "\1 \2 "}. */
  private static Chars splitPeriodCommaAfterNonDigit(Chars in) {
    return splitPairs(in, c -> !isDigit(c), Tokenizer13a::isPeriodOrComma, false);
  }

  /** {@code ([.,])([^0-9])} to {@code " \1 \2"}. */
  private static Chars splitPeriodCommaBeforeNonDigit(Chars in) {
    return splitPairs(in, Tokenizer13a::isPeriodOrComma, c -> !isDigit(c), true);
  }

  /** {@code ([0-9])(-)} to {@code "\1 \2 "}. */
  private static Chars splitDashAfterDigit(Chars in) {
    return splitPairs(in, Tokenizer13a::isDigit, c -> c == '-', false);
  }

  /**
   * Each pair of a {@code first} char followed by a {@code second}, left to right without overlap, as
   * {@code " \1 \2"} if {@code spaceFirst}, else as {@code "\1 \2 "}.
   */
  private static Chars splitPairs(Chars in, CharTest first, CharTest second, boolean spaceFirst) {
    Chars out = new Chars(in.length + in.length / 2 + 2);
    int i = 0;
    while (i < in.length) {
      char c = in.chars[i];
      if (i + 1 < in.length && first.test(c) && second.test(in.chars[i + 1])) {
        if (spaceFirst) {
          out.add(' ').add(c).add(' ').add(in.chars[i + 1]);
        } else {
          out.add(c).add(' ').add(in.chars[i + 1]).add(' ');
        }
        i += 2;
      } else {
        out.add(c);
        i++;
      }
    }
    return out;
  }

  /** A test of one char, without boxing it. */
  private interface CharTest {
    boolean test(char c);
  }

  /** A growing char buffer. */
  private static final class Chars {
    private char[] chars;
    private int length;

    Chars(int capacity) {
      chars = new char[Math.max(capacity, 4)];
    }

    Chars add(char c) {
      if (length == chars.length) {
        chars = Arrays.copyOf(chars, 2 * length);
      }
      chars[length++] = c;
      return this;
    }

    /** Python's {@code str.split()}: every whitespace code point of Python's is in the BMP, so chars suffice. */
    List<String> split() {
      List<String> words = new ArrayList<>();
      int start = -1;
      for (int i = 0; i < length; i++) {
        if (PythonText.isSpace(chars[i])) {
          if (start >= 0) {
            words.add(new String(chars, start, i - start));
            start = -1;
          }
        } else if (start < 0) {
          start = i;
        }
      }
      if (start >= 0) {
        words.add(new String(chars, start, length - start));
      }
      return words;
    }
  }
}
