package org.sparknmt.prepare.clean;

import java.io.Serializable;
import java.util.EnumSet;
import java.util.Set;

/** The outcome of validating one pair: kept (normalized, with the repairs applied) or rejected with a reason. */
public sealed interface Verdict extends Serializable permits Verdict.Kept, Verdict.Rejected {

  /** A pair that goes on: normalized text of both sides and the repairs it needed. */
  record Kept(String source, String target, Set<Repair> repairs) implements Verdict {
    public Kept {
      repairs = repairs.isEmpty() ? EnumSet.noneOf(Repair.class) : EnumSet.copyOf(repairs);
    }
  }

  /** A pair left out: the reason and a human-readable detail (side, column, value). */
  record Rejected(RejectReason reason, String detail) implements Verdict {}
}
