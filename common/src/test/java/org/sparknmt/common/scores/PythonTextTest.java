package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PythonTextTest {
  @Test
  void whitespaceIsPythons() {
    // Python: '\u00a0\u202f\x85\x1c'.isspace() is True, '\u200b\ufeff'.isspace() is False; Java disagrees on the first four.
    for (int cp : new int[] {' ', '\t', '\r', 0x0B, 0x1C, 0x1F, 0x85, 0xA0, 0x2007, 0x202F, 0x2028, 0x3000}) {
      assertTrue(PythonText.isSpace(cp), Integer.toHexString(cp));
    }
    for (int cp : new int[] {'a', 0x200B, 0xFEFF, 0x180E, 0x1B, 0x1F600}) {
      assertFalse(PythonText.isSpace(cp), Integer.toHexString(cp));
    }
  }

  @Test
  void splitDropsEveryRunOfWhitespace() {
    assertEquals(List.of("a", "b\u200bc", "😀", "d"), PythonText.split("\u3000a \t\u00a0b\u200bc\u0085😀\r\nd  "));
    assertEquals(List.of(), PythonText.split(" \t "));
    assertEquals(List.of(), PythonText.split(""));
  }

  @Test
  void rstripAndRemoveSpaces() {
    assertEquals(" a b", PythonText.rstrip(" a b \u00a0\r"));
    assertEquals("", PythonText.rstrip("\u2028"));
    assertEquals("ab😀c", new String(PythonText.codePointsWithoutSpaces(" a\u00a0b 😀\tc "), 0, 4));
  }

  @Test
  void fixedRoundsTheBinaryValueHalfToEven() {
    // Python: f"{0.125:.2f}" == '0.12', f"{2.675:.2f}" == '2.67' (2.675 is 2.67499.. in binary), f"{0.375:.2f}" == '0.38'.
    assertEquals("0.12", PythonText.fixed(0.125, 2));
    assertEquals("2.67", PythonText.fixed(2.675, 2));
    assertEquals("0.38", PythonText.fixed(0.375, 2));
    assertEquals("100.00", PythonText.fixed(100.0, 2));
    assertEquals("0.0", PythonText.fixed(0.0, 1));
  }
}
