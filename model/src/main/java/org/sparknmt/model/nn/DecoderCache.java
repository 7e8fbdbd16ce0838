package org.sparknmt.model.nn;

import java.util.List;
import java.util.function.Supplier;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What incremental decoding keeps between search steps for a batch of sentences (fairseq's
 * incremental_state): per decoder layer, the encoder-decoder attention's keys and values of the
 * source, projected once per batch, and the self-attention's keys and values of every output
 * position so far, one position appended per step. Every live sentence has the same number k of
 * hypotheses in a step, so the k queries of a sentence attend to its source as one [k, t_src] block
 * and the source is never copied per hypothesis.
 *
 * <p>What the cache keeps lives in the workspace that was current when it was made (the search's), so
 * that a search may run each step in a workspace of its own that the next step reuses.
 */
public final class DecoderCache {
  private final int heads;
  private final MemoryWorkspace home;
  private final KeysValues[] source;
  private final SelfAttentionCache[] outputs;
  private INDArray sourceKeep;
  private AttentionMask sourceMask;

  /**
   * cross: each layer's source keys and values [sentences·h, t_src, d_k]; sourceKeep [sentences, t_src];
   * the self-attention caches hold up to maxHypotheses hypotheses of up to maxPositions positions.
   */
  DecoderCache(int heads, int dk, List<KeysValues> cross, INDArray sourceKeep, int maxHypotheses, int maxPositions) {
    this.heads = heads;
    this.home = Nd4j.getMemoryManager().getCurrentWorkspace();
    this.source = cross.toArray(KeysValues[]::new);
    this.outputs = new SelfAttentionCache[source.length];
    for (int l = 0; l < outputs.length; l++) {
      outputs[l] = new SelfAttentionCache(maxHypotheses, maxPositions, heads, dk, sourceKeep.dataType());
    }
    this.sourceKeep = sourceKeep;
  }

  /** The sentences still searched. */
  public int sentences() {
    return (int) sourceKeep.size(0);
  }

  /**
   * Keeps what the search goes on with, in its order: hypotheses[i] is the row, in the step just
   * decoded, of the parent of the next step's i-th hypothesis; sentences[j], ascending, the row of
   * the j-th sentence still searched. Finished sentences and dropped hypotheses leave the cache.
   */
  public void select(int[] hypotheses, int[] sentences) {
    if (!isIdentity(hypotheses, outputs[0].hypotheses())) {
      for (SelfAttentionCache layer : outputs) {
        layer.select(hypotheses);
      }
    }
    if (sentences.length != sentences()) {
      for (int l = 0; l < source.length; l++) {
        KeysValues all = source[l];
        source[l] = kept(() -> all.gather(sentences, heads));
      }
      INDArray keep = sourceKeep;
      sourceKeep = kept(() -> Nd4j.pullRows(keep, 1, sentences));
      sourceMask = null;
    }
  }

  KeysValues source(int layer) {
    return source[layer];
  }

  /** Appends the newest position's keys and values to a layer's self-attention cache; returns all positions. */
  KeysValues appendOutput(int layer, KeysValues newest) {
    return outputs[layer].append(newest);
  }

  /** Source padding for the k = hypotheses/sentences queries of each sentence, [sentences·h, k, t_src]. */
  AttentionMask sourceMask(int hypotheses) {
    int n = sentences();
    if (hypotheses % n != 0) {
      throw new IllegalStateException(hypotheses + " hypotheses are not the same number for each of " + n + " sentences");
    }
    int k = hypotheses / n;
    if (sourceMask == null || sourceMask.keep().size(1) != k) {
      int ts = (int) sourceKeep.size(1);
      sourceMask = kept(() -> AttentionMask.of(sourceKeep, n, k, ts, heads, false, sourceKeep.dataType()));
    }
    return sourceMask;
  }

  /** Allocates what outlives a step in the cache's home workspace (none: outside every workspace). */
  private <T> T kept(Supplier<T> allocation) {
    try (MemoryWorkspace scope = home == null
        ? Nd4j.getWorkspaceManager().scopeOutOfWorkspaces() : home.notifyScopeBorrowed()) {
      return allocation.get();
    }
  }

  private static boolean isIdentity(int[] rows, int n) {
    if (rows.length != n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (rows[i] != i) {
        return false;
      }
    }
    return true;
  }
}
