package org.sparknmt.common.shard;

import java.io.Serializable;
import java.util.List;

/** Pairs trained on together: similar lengths, padded cost within the token budget. */
public record Batch(List<EncodedPair> pairs) implements Serializable {
  public Batch {
    if (pairs.isEmpty()) {
      throw new IllegalArgumentException("a batch needs at least one pair");
    }
    pairs = List.copyOf(pairs);
  }

  /** Source length with EOS, the {@code srcLen} of the batch's arrays. */
  public int sourceLength() {
    return pairs.stream().mapToInt(p -> p.source().length).max().orElseThrow() + 1;
  }

  /** Target length with BOS (tgtIn) or EOS (tgtOut), the {@code tgtLen} of the batch's arrays. */
  public int targetLength() {
    return pairs.stream().mapToInt(p -> p.target().length).max().orElseThrow() + 1;
  }

  /** Real tokens, BOS/EOS included: what the masks mark 1 (source and target input). */
  public long realTokens() {
    return pairs.stream().mapToLong(p -> p.source().length + 1 + p.target().length + 1).sum();
  }

  /** Array cells, padding included: {@code batch * (srcLen + tgtLen)}. */
  public long paddedTokens() {
    return (long) pairs.size() * (sourceLength() + targetLength());
  }
}
