package org.sparknmt.prepare.clean;

import java.util.Locale;

/** Why a pair was left out of the prepared corpus; written beside each rejected pair and counted in the manifest. */
public enum RejectReason {
  /** A side is not valid UTF-8. */
  INVALID_UTF8,
  /** A side holds a C0 or C1 control character other than tab (which is whitespace). */
  CONTROL_CHARACTER,
  /** The source is empty after normalization. */
  EMPTY_SOURCE,
  /** The target is empty after normalization. */
  EMPTY_TARGET,
  /** A side has more words or characters than {@code data.max_words} / {@code data.max_chars}. */
  TOO_LONG,
  /** The word counts of the two sides differ by more than {@code data.max_length_ratio}. */
  LENGTH_RATIO,
  /** A side encodes to more than {@code data.max_subwords} subword tokens. */
  TOO_MANY_SUBWORDS,
  /** A line of a pair of files whose line counts differ (only with {@code --allow-misaligned}: the pair is rejected whole). */
  MISALIGNED,
  /** A TSV line does not have exactly two tab-separated columns. */
  TSV_COLUMNS,
  /** A table row's source or target cell is null: no sentence to pair. */
  NULL_CELL;

  /** The name used in reject files and the manifest: {@code invalid-utf8}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
