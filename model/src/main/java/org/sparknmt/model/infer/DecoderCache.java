package org.sparknmt.model.infer;

import java.util.List;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What incremental decoding keeps between search steps for a batch of sentences (fairseq's
 * incremental_state): per decoder layer, the encoder-decoder attention's keys and values of the
 * source, projected once per batch, and the self-attention's keys and values of every output
 * position so far, one position appended per step. Every live sentence has the same number k of
 * hypotheses in a step, so the k queries of a sentence attend to its source as one [k, t_src] block
 * and the source is never copied per hypothesis. A finished sentence only leaves the list of sources
 * read: the source's keys and values stay where they were stored for the batch (the keys transposed
 * once, as {@link CachedKeysValues} reads them).
 *
 * <p>What the cache keeps is allocated in the workspace that is current when it is made (the
 * search's), so that a search may run each step in a workspace of its own that the next step reuses.
 */
public final class DecoderCache {
  private final INDArray[] sourceKeys;
  private final INDArray[] sourceValues;
  private final SelfAttentionCache[] outputs;
  private final float[] sourceKeep;
  private final int sourceLength;
  private int[] sentences;

  /**
   * cross: each layer's source keys and values [sentences·h, t_src, d_k]; sourceKeep [sentences, t_src];
   * the self-attention caches hold up to maxHypotheses hypotheses of up to maxPositions positions.
   */
  public DecoderCache(int heads, int dk, List<KeysValues> cross, INDArray sourceKeep, int maxHypotheses, int maxPositions) {
    this.sourceKeys = cross.stream().map(kv -> CachedKeysValues.transposed(kv.keys())).toArray(INDArray[]::new);
    this.sourceValues = cross.stream().map(KeysValues::values).toArray(INDArray[]::new);
    this.outputs = new SelfAttentionCache[cross.size()];
    for (int l = 0; l < outputs.length; l++) {
      outputs[l] = new SelfAttentionCache(maxHypotheses, maxPositions, heads, dk, sourceKeep.dataType());
    }
    this.sourceKeep = sourceKeep.dup('c').data().asFloat();
    this.sourceLength = (int) sourceKeep.size(1);
    this.sentences = IntStream.range(0, (int) sourceKeep.size(0)).toArray();
  }

  /** The sentences still searched. */
  public int sentences() {
    return sentences.length;
  }

  /**
   * Keeps what the search goes on with, in its order: hypotheses[i] is the row, in the step just
   * decoded, of the parent of the next step's i-th hypothesis; sentences[j], ascending, the row of
   * the j-th sentence still searched. Finished sentences and dropped hypotheses leave the cache.
   */
  public void select(int[] hypotheses, int[] sentences) {
    // hypotheses that are their parents' only children keep their slots: an unchanged order copies nothing
    for (SelfAttentionCache layer : outputs) {
      layer.select(hypotheses);
    }
    if (sentences.length != this.sentences.length) {
      int[] kept = new int[sentences.length];
      for (int j = 0; j < kept.length; j++) {
        kept[j] = this.sentences[sentences[j]];
      }
      this.sentences = kept;
    }
  }

  /** What the k queries of each live sentence attend to in a layer: its source, without the padding. */
  public CachedKeysValues source(int layer) {
    return new CachedKeysValues(sourceKeys[layer], sourceValues[layer], sentences, sourceLength, sourceKeep);
  }

  /** Appends the newest position's keys and values to a layer's self-attention cache; returns what each hypothesis attends to. */
  public CachedKeysValues appendOutput(int layer, KeysValues newest) {
    return outputs[layer].append(newest);
  }
}
