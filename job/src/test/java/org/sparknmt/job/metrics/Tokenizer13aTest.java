package org.sparknmt.job.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
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
}
