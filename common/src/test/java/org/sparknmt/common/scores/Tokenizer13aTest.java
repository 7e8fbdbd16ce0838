package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Expected tokens as sacreBLEU 2.6.0's {@code Tokenizer13a} gives them. */
class Tokenizer13aTest {
  private static void assertTokens(String line, String... tokens) {
    assertEquals(List.of(tokens), Tokenizer13a.tokenize(line), line);
  }

  @Test
  void splitsSymbolsAndPunctuation() {
    assertTokens("The cat (hi) sat.", "The", "cat", "(", "hi", ")", "sat", ".");
    assertTokens("a/b \"q\" #1 ^_^ {a} [b] `c`", "a", "/", "b", "\"", "q", "\"", "#", "1", "^", "_", "^", "{", "a", "}", "[", "b", "]", "`", "c", "`");
    assertTokens("l'eau a-b -- e.g. ...", "l'eau", "a-b", "--", "e", ".", "g", ".", ".", ".", ".");
  }

  @Test
  void keepsPeriodsAndCommasBetweenDigits() {
    assertTokens("3.14 1,000 1.2.3", "3.14", "1,000", "1.2.3");
    assertTokens("$5.00.", "$", "5.00", ".");
    assertTokens("9.", "9", ".");
    assertTokens(".9", ".", "9");
    assertTokens("x,y", "x", ",", "y");
  }

  @Test
  void splitsDashAfterDigit() {
    assertTokens("5-6", "5", "-", "6");
    assertTokens("7-", "7", "-");
    assertTokens("-7", "-7");
    assertTokens("5--6", "5", "-", "-6");
  }

  @Test
  void unescapesEntitiesOneAfterTheOther() {
    assertTokens("&quot;a&quot; &amp; &gt;", "\"", "a", "\"", "&", ">");
    assertTokens("&amp;lt;", "<");
    assertTokens("a <skipped> b", "a", "b");
  }

  @Test
  void splitsOnPythonWhitespaceOnly() {
    assertTokens("x\u00a0y x\u0085y x\u2028y x\u001cy", "x", "y", "x", "y", "x", "y", "x", "y");
    assertTokens("a\u200bb 😀 漢字 e\u0301", "a\u200bb", "😀", "漢字", "e\u0301");
    assertTokens("   ");
    assertTokens("");
  }

  @Test
  void scansAsSacrebleusRegularExpressionsReplace() {
    // sacreBLEU's four substitutions as regular expressions, applied to random lines made of the characters
    // each one looks at: the single-scan tokenizer must give the same tokens on every one.
    Pattern symbol = Pattern.compile("([{-~\\[-` -&(-+:-@/])");
    Pattern periodCommaAfterNonDigit = Pattern.compile("([^0-9])([.,])");
    Pattern periodCommaBeforeNonDigit = Pattern.compile("([.,])([^0-9])");
    Pattern dashAfterDigit = Pattern.compile("([0-9])(-)");
    String[] alphabet = {"a", "Z", "1", "9", ".", ",", "-", " ", "(", "/", "&", "<", "'", "\u00a0", "\n", "😀", "é", "&amp;", "<skipped>"};
    Random random = new Random(13);
    for (int line = 0; line < 20_000; line++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        text.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String s = PythonText.rstrip(text.toString()).replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
          .replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
      s = symbol.matcher(" " + s + " ").replaceAll(" $1 ");
      s = periodCommaAfterNonDigit.matcher(s).replaceAll("$1 $2 ");
      s = periodCommaBeforeNonDigit.matcher(s).replaceAll(" $1 $2");
      s = dashAfterDigit.matcher(s).replaceAll("$1 $2 ");
      assertEquals(PythonText.split(s), Tokenizer13a.tokenize(text.toString()), text.toString());
    }
  }
}
