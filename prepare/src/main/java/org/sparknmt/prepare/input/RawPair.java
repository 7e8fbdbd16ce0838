package org.sparknmt.prepare.input;

import java.io.Serializable;
import org.sparknmt.prepare.clean.RejectReason;

/**
 * One input line pair as raw bytes (without the {@code \n}), before any decoding, or a line that
 * could not be paired ({@code early} says why: no partner line, wrong TSV column count).
 */
public record RawPair(long lineId, byte[] source, byte[] target, RejectReason early, String earlyDetail)
    implements Serializable {

  public static RawPair of(long lineId, byte[] source, byte[] target) {
    return new RawPair(lineId, source, target, null, null);
  }

  public static RawPair rejected(long lineId, byte[] source, byte[] target, RejectReason reason, String detail) {
    return new RawPair(lineId, source, target, reason, detail);
  }
}
