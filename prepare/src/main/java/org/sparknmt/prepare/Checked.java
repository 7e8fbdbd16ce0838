package org.sparknmt.prepare;

import java.io.Serializable;
import org.sparknmt.common.data.Split;
import org.sparknmt.prepare.clean.PairValidator;
import org.sparknmt.prepare.clean.Verdict;
import org.sparknmt.prepare.input.RawPair;

/** A raw pair after validation, with its split; the raw bytes stay only when rejected, for the reject file. */
record Checked(long lineId, Split split, Verdict verdict, byte[] rawSource, byte[] rawTarget) implements Serializable {

  static Checked of(RawPair raw, Split split, PairValidator validator) {
    if (raw.early() != null) {
      return new Checked(raw.lineId(), split, new Verdict.Rejected(raw.early(), raw.earlyDetail()),
          raw.source(), raw.target());
    }
    Verdict verdict = validator.validate(raw.source(), raw.target());
    return verdict instanceof Verdict.Kept
        ? new Checked(raw.lineId(), split, verdict, null, null)
        : new Checked(raw.lineId(), split, verdict, raw.source(), raw.target());
  }

  Verdict.Kept kept() {
    return verdict instanceof Verdict.Kept k ? k : null;
  }
}
