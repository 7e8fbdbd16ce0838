package org.sparknmt.model.nn;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What incremental decoding keeps between search steps for a batch of sentences (fairseq's
 * incremental_state): per decoder layer, the encoder-decoder attention's keys and values of the
 * source, projected once per batch, and the self-attention's keys and values of every output
 * position so far, one position appended per step. Every live sentence has the same number k of
 * hypotheses in a step, so the k queries of a sentence attend to its source as one [k, t_src] block
 * and the source is never copied per hypothesis.
 */
public final class DecoderCache {
  private final int heads;
  private final KeysValues[] source;
  private final KeysValues[] outputs;
  private INDArray sourceKeep;
  private AttentionMask sourceMask;

  /** cross: each layer's source keys and values [sentences·h, t_src, d_k]; sourceKeep [sentences, t_src]. */
  DecoderCache(int heads, List<KeysValues> cross, INDArray sourceKeep) {
    this.heads = heads;
    this.source = cross.toArray(KeysValues[]::new);
    this.outputs = new KeysValues[source.length];
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
    if (!isIdentity(hypotheses, (int) outputs[0].keys().size(0) / heads)) {
      for (int l = 0; l < outputs.length; l++) {
        outputs[l] = outputs[l].gather(hypotheses, heads);
      }
    }
    if (sentences.length != sentences()) {
      for (int l = 0; l < source.length; l++) {
        source[l] = source[l].gather(sentences, heads);
      }
      sourceKeep = Nd4j.pullRows(sourceKeep, 1, sentences);
      sourceMask = null;
    }
  }

  KeysValues source(int layer) {
    return source[layer];
  }

  /** Appends the newest position's keys and values to a layer's self-attention cache; returns all positions. */
  KeysValues appendOutput(int layer, KeysValues newest) {
    outputs[layer] = outputs[layer] == null ? newest : outputs[layer].append(newest);
    return outputs[layer];
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
      sourceMask = AttentionMask.of(sourceKeep, n, k, ts, heads, false, sourceKeep.dataType());
    }
    return sourceMask;
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
