package org.sparknmt.model.decode;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The attention weights of one sentence pair, per layer, each [heads, t_q, t_k]: encoder
 * self-attention over the source, decoder self-attention over the output prefix (BOS first), and
 * encoder-decoder attention from each output position to the source.
 */
public record AttentionMaps(List<INDArray> encoderSelf, List<INDArray> decoderSelf, List<INDArray> crossAttention) {}
