package org.sparknmt.prepare.clean;

import java.util.Locale;

/** A defect repaired by rule in a kept pair; counted per rule in the manifest. */
public enum Repair {
  /** A byte-order mark at the start of a line was removed. */
  BOM,
  /** A carriage return before the line end (CRLF) was removed. */
  CRLF,
  /** Whitespace was collapsed to single spaces and trimmed (tabs, NBSP, runs of spaces). */
  WHITESPACE,
  /** The text was not in Unicode NFC and was composed. */
  NFC;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
