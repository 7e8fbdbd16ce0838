package org.sparknmt.job.metrics;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code 13a} tokenizer of mteval-v13a.pl as sacreBLEU applies it (its default for BLEU): SGML
 * entities unescaped, then punctuation and symbols split off, periods and commas split off unless
 * beside a digit, and a dash split off after a digit.
 */
public final class Tokenizer13a {
  /** The ASCII symbols {@code {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ /}, each made a token. */
  private static final Pattern SYMBOL = Pattern.compile("([{-~\\[-` -&(-+:-@/])");
  private static final Pattern PERIOD_COMMA_AFTER_NON_DIGIT = Pattern.compile("([^0-9])([.,])");
  private static final Pattern PERIOD_COMMA_BEFORE_NON_DIGIT = Pattern.compile("([.,])([^0-9])");
  private static final Pattern DASH_AFTER_DIGIT = Pattern.compile("([0-9])(-)");

  private Tokenizer13a() {}

  /** The tokens of one line, after sacreBLEU's preprocessing ({@code rstrip}, case kept). */
  public static List<String> tokenize(String line) {
    String s = PythonText.rstrip(line)
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace("\n", " ");
    if (s.indexOf('&') >= 0) {
      // One after the other, as sacreBLEU does: "&amp;lt;" ends as "<".
      s = s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    }
    // The padding matters: it lets a final "9." or an initial ".9" split off its period.
    s = SYMBOL.matcher(" " + s + " ").replaceAll(" $1 ");
    s = PERIOD_COMMA_AFTER_NON_DIGIT.matcher(s).replaceAll("$1 $2 ");
    s = PERIOD_COMMA_BEFORE_NON_DIGIT.matcher(s).replaceAll(" $1 $2");
    s = DASH_AFTER_DIGIT.matcher(s).replaceAll("$1 $2 ");
    return PythonText.split(s);
  }
}
