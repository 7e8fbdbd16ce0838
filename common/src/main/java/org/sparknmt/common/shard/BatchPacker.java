package org.sparknmt.common.shard;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Packs pairs, already sorted by length, into batches under a token budget as fairseq's
 * {@code --max-tokens} does: a batch of {@code n} pairs whose longest needs {@code L} positions costs
 * {@code n * L}; the next pair starts a new batch when it would push the cost over the budget (or
 * the count over {@code maxSentences}). A pair longer than the budget alone gets a batch of its own.
 */
public final class BatchPacker {
  private final int maxTokens;
  private final int maxSentences;

  /** @param maxSentences the most pairs per batch, 0 for no limit */
  public BatchPacker(int maxTokens, int maxSentences) {
    if (maxTokens <= 0 || maxSentences < 0) {
      throw new IllegalArgumentException("max_tokens must be positive and max_sentences not negative");
    }
    this.maxTokens = maxTokens;
    this.maxSentences = maxSentences;
  }

  /** Lazily packs {@code sorted} (ascending {@link EncodedPair#batchLength()}) into batches, in order. */
  public Iterator<Batch> pack(Iterator<EncodedPair> sorted) {
    return new Iterator<>() {
      private EncodedPair pending = sorted.hasNext() ? sorted.next() : null;

      @Override
      public boolean hasNext() {
        return pending != null;
      }

      @Override
      public Batch next() {
        if (pending == null) {
          throw new NoSuchElementException();
        }
        List<EncodedPair> batch = new ArrayList<>();
        int longest = 0;
        while (pending != null) {
          int length = Math.max(longest, pending.batchLength());
          boolean fits = (long) (batch.size() + 1) * length <= maxTokens
              && (maxSentences == 0 || batch.size() < maxSentences);
          if (!fits && !batch.isEmpty()) {
            break;
          }
          batch.add(pending);
          longest = length;
          pending = sorted.hasNext() ? sorted.next() : null;
        }
        return new Batch(batch);
      }
    };
  }
}
