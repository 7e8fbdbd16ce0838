package org.sparknmt.prepare;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.sparknmt.common.data.Split;
import org.sparknmt.prepare.clean.RejectReason;
import org.sparknmt.prepare.clean.Repair;

/**
 * The counts of a prepare run, summed on the executors: pairs read, rejected by reason, repaired by
 * rule, and per split the kept pairs with their subword length histograms and token totals.
 */
final class Tally implements Serializable {
  long read;
  final long[] rejected = new long[RejectReason.values().length];
  final long[] repaired = new long[Repair.values().length];
  final Lengths train = new Lengths();
  final Lengths valid = new Lengths();

  /** The kept pairs of one split. */
  static final class Lengths implements Serializable {
    long pairs;
    long sourceTokens;
    long targetTokens;
    /** Subword tokens per sentence (without BOS/EOS) -> pairs. */
    final TreeMap<Integer, Long> source = new TreeMap<>();
    final TreeMap<Integer, Long> target = new TreeMap<>();
    /** {@link org.sparknmt.common.shard.EncodedPair#batchLength()} -> pairs: what the length sort partitions by. */
    final TreeMap<Integer, Long> batch = new TreeMap<>();

    void merge(Lengths o) {
      pairs += o.pairs;
      sourceTokens += o.sourceTokens;
      targetTokens += o.targetTokens;
      o.source.forEach((k, v) -> source.merge(k, v, Long::sum));
      o.target.forEach((k, v) -> target.merge(k, v, Long::sum));
      o.batch.forEach((k, v) -> batch.merge(k, v, Long::sum));
    }
  }

  Tally add(Prepared p) {
    read++;
    if (!p.kept()) {
      rejected[p.reject().reason().ordinal()]++;
      return this;
    }
    p.repairs().forEach(r -> repaired[r.ordinal()]++);
    Lengths split = of(p.split());
    split.pairs++;
    split.sourceTokens += p.pair().source().length;
    split.targetTokens += p.pair().target().length;
    split.source.merge(p.pair().source().length, 1L, Long::sum);
    split.target.merge(p.pair().target().length, 1L, Long::sum);
    split.batch.merge(p.pair().batchLength(), 1L, Long::sum);
    return this;
  }

  Tally merge(Tally o) {
    read += o.read;
    for (int i = 0; i < rejected.length; i++) {
      rejected[i] += o.rejected[i];
    }
    for (int i = 0; i < repaired.length; i++) {
      repaired[i] += o.repaired[i];
    }
    train.merge(o.train);
    valid.merge(o.valid);
    return this;
  }

  Lengths of(Split split) {
    return split == Split.TRAIN ? train : valid;
  }

  long kept() {
    return train.pairs + valid.pairs;
  }

  long rejectedTotal() {
    long total = 0;
    for (long r : rejected) {
      total += r;
    }
    return total;
  }

  /** Rejects by reason label, every reason listed (zero included) so manifests compare key by key. */
  Map<String, Long> rejectedByReason() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (RejectReason r : RejectReason.values()) {
      out.put(r.label(), rejected[r.ordinal()]);
    }
    return out;
  }

  Map<String, Long> repairedByRule() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Repair r : Repair.values()) {
      out.put(r.label(), repaired[r.ordinal()]);
    }
    return out;
  }
}
