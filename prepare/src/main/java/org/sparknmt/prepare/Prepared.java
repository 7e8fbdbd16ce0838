package org.sparknmt.prepare;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.prepare.clean.RejectReason;
import org.sparknmt.prepare.clean.Repair;
import org.sparknmt.prepare.clean.Verdict;

/** The final state of one input line: encoded and kept (with its repairs), or rejected. */
record Prepared(long lineId, Split split, EncodedPair pair, Set<Repair> repairs, RejectRecord reject)
    implements Serializable {

  /** Encodes a kept pair, rejecting it when a side exceeds {@code maxSubwords} tokens. */
  static Prepared of(Checked checked, BpeEncoder encoder, int maxSubwords) {
    Verdict.Kept kept = checked.kept();
    if (kept == null) {
      Verdict.Rejected r = (Verdict.Rejected) checked.verdict();
      return rejected(checked, r.reason(), r.detail(), checked.rawSource(), checked.rawTarget());
    }
    int[] src = encoder.encode(kept.source());
    int[] tgt = encoder.encode(kept.target());
    if (src.length > maxSubwords || tgt.length > maxSubwords) {
      String side = src.length > maxSubwords ? "source" : "target";
      return rejected(checked, RejectReason.TOO_MANY_SUBWORDS, side + " has " + Math.max(src.length, tgt.length)
          + " subword tokens, more than " + maxSubwords,
          kept.source().getBytes(StandardCharsets.UTF_8), kept.target().getBytes(StandardCharsets.UTF_8));
    }
    return new Prepared(checked.lineId(), checked.split(), new EncodedPair(checked.lineId(), src, tgt), kept.repairs(), null);
  }

  private static Prepared rejected(Checked c, RejectReason reason, String detail, byte[] source, byte[] target) {
    return new Prepared(c.lineId(), c.split(), null, Set.of(),
        new RejectRecord(c.lineId(), c.split(), reason, detail, source, target));
  }

  boolean kept() {
    return pair != null;
  }
}
