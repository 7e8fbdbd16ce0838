package org.sparknmt.model.decode;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.DecoderLayer;
import org.sparknmt.model.nn.Transformer;

/**
 * Hard word alignment from cross-attention (fairseq's {@code --print-alignment}, Marian's
 * {@code --alignment hard}): each output token is aligned to the source position its prediction attended
 * to most, in the encoder-decoder attention of the last decoder layer averaged over its heads. The source's
 * EOS and padding are never chosen (fairseq's extract_hard_alignment). The weights are those of the search's
 * own steps, recomputed in one teacher-forced pass over the finished outputs, so the search itself computes
 * nothing extra.
 */
final class CrossAttentionAlignment {
  private CrossAttentionAlignment() {}

  /**
   * @param sources ids ending with EOS
   * @param outputs outputs[i] translates sources[i], without BOS and EOS
   * @return for each output token, the position of its source token (0 = the first), or −1 when the source
   *     has no token but EOS
   */
  static int[][] of(Transformer model, ControlTokens tokens, DataType type, int[][] sources, int[][] outputs) {
    int n = sources.length;
    if (n == 0) {
      return new int[0][];
    }
    SourceBatch src = SourceBatch.of(sources, tokens.pad(), type);
    int tt = 1;
    for (int[] output : outputs) {
      tt = Math.max(tt, output.length + 1);
    }
    // padding after an output is masked from it by the causal mask, so it changes none of its weights
    int[] targetIn = new int[n * tt];
    java.util.Arrays.fill(targetIn, tokens.pad());
    for (int i = 0; i < n; i++) {
      targetIn[i * tt] = tokens.bos();
      System.arraycopy(outputs[i], 0, targetIn, i * tt + 1, outputs[i].length);
    }
    INDArray memory = model.encode(n, src.ids(), src.keep(), type, false);
    model.decode(n, targetIn, null, memory, src.keep(), false);
    DecoderLayer last = model.decoder().layers().get(model.decoder().layers().size() - 1);
    // [n, heads, t_tgt, t_src] -> [n, t_tgt, t_src]
    float[] weights = last.crossAttention().weights().mean(1).castTo(DataType.FLOAT).dup('c').data().asFloat();
    int ts = src.length();
    int[][] alignments = new int[n][];
    for (int i = 0; i < n; i++) {
      alignments[i] = new int[outputs[i].length];
      int words = sources[i].length - 1;
      for (int j = 0; j < outputs[i].length; j++) {
        int from = (i * tt + j) * ts;
        int best = -1;
        for (int p = 0; p < words; p++) {
          if (best < 0 || weights[from + p] > weights[from + best]) {
            best = p;
          }
        }
        alignments[i][j] = best;
      }
    }
    return alignments;
  }
}
