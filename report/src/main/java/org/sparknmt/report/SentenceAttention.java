package org.sparknmt.report;

import java.util.List;
import org.sparknmt.model.decode.AttentionMaps;

/**
 * The attention maps of one sentence pair with the subword labels of their axes.
 *
 * @param sourceTokens the encoder's positions: the source pieces and {@code </s>}
 * @param decoderTokens the decoder's input positions: {@code <s>} and the output pieces (position i predicts output i)
 * @param maps per layer [heads, t_q, t_k]
 */
public record SentenceAttention(String source, String output, List<String> sourceTokens, List<String> decoderTokens,
    AttentionMaps maps) {
  public SentenceAttention {
    sourceTokens = List.copyOf(sourceTokens);
    decoderTokens = List.copyOf(decoderTokens);
    if (!maps.encoderSelf().isEmpty() && maps.encoderSelf().get(0).size(2) != sourceTokens.size()) {
      throw new IllegalArgumentException(sourceTokens.size() + " source labels for " + maps.encoderSelf().get(0).size(2)
          + " encoder positions");
    }
    if (!maps.decoderSelf().isEmpty() && maps.decoderSelf().get(0).size(1) != decoderTokens.size()) {
      throw new IllegalArgumentException(decoderTokens.size() + " decoder labels for " + maps.decoderSelf().get(0).size(1)
          + " decoder positions");
    }
  }
}
