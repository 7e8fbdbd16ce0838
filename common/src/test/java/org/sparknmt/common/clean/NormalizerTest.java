package org.sparknmt.common.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NormalizerTest {
  @Test
  void collapsesEveryKindOfWhitespace() {
    assertEquals("a b c d", Normalizer.normalize("  a\u00A0\u00A0b\u3000c\t\u2009d \n"));
  }

  @Test
  void composesAndKeepsZeroWidthJoiners() {
    assertEquals("\u00e9", Normalizer.normalize("e\u0301"));
    String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67";
    assertEquals(family, Normalizer.normalize(family));
  }

  @Test
  void isIdempotent() {
    for (String s : new String[] {" e \u0301 x", "\u2000a\u0301\u00A0", "\u0301 start", "\u1100\u1161 \u11A8"}) {
      String once = Normalizer.normalize(s);
      assertEquals(once, Normalizer.normalize(once), s);
    }
  }
}
