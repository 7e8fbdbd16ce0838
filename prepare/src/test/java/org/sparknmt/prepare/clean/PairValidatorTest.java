package org.sparknmt.prepare.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class PairValidatorTest {
  private final PairValidator validator = new PairValidator(10, 60, 3.0);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Verdict.Rejected rejected(byte[] src, byte[] tgt) {
    return assertInstanceOf(Verdict.Rejected.class, validator.validate(src, tgt));
  }

  private Verdict.Kept kept(String src, String tgt) {
    return assertInstanceOf(Verdict.Kept.class, validator.validate(utf8(src), utf8(tgt)));
  }

  @Test
  void keepsCleanPairUnchanged() {
    Verdict.Kept kept = kept("A dog runs.", "Ein Hund rennt.");
    assertEquals("A dog runs.", kept.source());
    assertEquals("Ein Hund rennt.", kept.target());
    assertTrue(kept.repairs().isEmpty());
  }

  @Test
  void rejectsInvalidUtf8NamingTheByte() {
    Verdict.Rejected r = rejected(new byte[] {'a', 'b', (byte) 0xC3, 'c'}, utf8("x"));
    assertEquals(RejectReason.INVALID_UTF8, r.reason());
    assertEquals("source is not valid UTF-8 at byte 3", r.detail());
    assertEquals(RejectReason.INVALID_UTF8, rejected(utf8("x"), new byte[] {(byte) 0xFF}).reason());
  }

  @Test
  void rejectsControlCharactersButRepairsTabs() {
    Verdict.Rejected r = rejected(utf8("ok"), utf8("bell\u0007here"));
    assertEquals(RejectReason.CONTROL_CHARACTER, r.reason());
    assertEquals("target has control character U+0007 at column 5", r.detail());
    Verdict.Kept tabs = kept("a\tb", "c  d ");
    assertEquals("a b", tabs.source());
    assertEquals("c d", tabs.target());
    assertEquals(EnumSet.of(Repair.WHITESPACE), tabs.repairs());
  }

  @Test
  void repairsBomAndCrlf() {
    Verdict.Kept kept = kept("\uFEFFHello", "Hallo\r");
    assertEquals("Hello", kept.source());
    assertEquals("Hallo", kept.target());
    assertEquals(EnumSet.of(Repair.BOM, Repair.CRLF), kept.repairs());
  }

  @Test
  void composesToNfc() {
    Verdict.Kept kept = kept("Cafe\u0301", "Caf\u00e9");
    assertEquals("Caf\u00e9", kept.source());
    assertEquals(EnumSet.of(Repair.NFC), kept.repairs());
  }

  @Test
  void rejectsEmptySides() {
    assertEquals(RejectReason.EMPTY_SOURCE, rejected(utf8(" \t "), utf8("x")).reason());
    assertEquals(RejectReason.EMPTY_TARGET, rejected(utf8("x"), utf8("")).reason());
  }

  @Test
  void rejectsOverLongSides() {
    Verdict.Rejected words = rejected(utf8("a b c d e f g h i j k"), utf8("a b c d e f g h i j"));
    assertEquals(RejectReason.TOO_LONG, words.reason());
    assertEquals("source has 11 words, more than 10", words.detail());
    Verdict.Rejected chars = rejected(utf8("x"), utf8("y".repeat(61)));
    assertEquals("target has 61 characters, more than 60", chars.detail());
  }

  @Test
  void rejectsExtremeLengthRatio() {
    Verdict.Rejected r = rejected(utf8("one"), utf8("eins zwei drei vier"));
    assertEquals(RejectReason.LENGTH_RATIO, r.reason());
    kept("one", "eins zwei drei");
  }

  @Test
  void controlCharacterInC1RangeIsRejected() {
    assertEquals(RejectReason.CONTROL_CHARACTER, rejected(utf8("c1\u009Bx"), utf8("y")).reason());
    assertEquals(RejectReason.CONTROL_CHARACTER, rejected(utf8("del\u007F"), utf8("y")).reason());
  }
}
