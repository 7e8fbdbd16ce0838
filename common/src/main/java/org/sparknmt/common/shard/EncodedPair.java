package org.sparknmt.common.shard;

import java.io.Serializable;

/**
 * One kept pair as subword ids, without BOS or EOS, and the id of its line ({@link LineId}) so every
 * training example traces back to its input.
 */
public record EncodedPair(long lineId, int[] source, int[] target) implements Serializable {
  /** The padded length this pair needs in a batch: source + EOS, or BOS + target (= target + EOS). */
  public int batchLength() {
    return Math.max(source.length, target.length) + 1;
  }
}
