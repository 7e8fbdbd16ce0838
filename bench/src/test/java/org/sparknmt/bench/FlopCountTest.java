package org.sparknmt.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.sparknmt.model.nn.TransformerConfig;

class FlopCountTest {
  /** d 4, 2 heads, FFN 8, 1+1 layers, vocab 10, source 2, target 3 tokens. */
  private static final TransformerConfig CONFIG =
      new TransformerConfig(4, 2, 8, 1, 16, 0.1, 0.0, 0.1, true, false, false);

  @Test
  void forwardOfATinyModelMatchesTheHandCount() {
    // encoder: projections 2·(4·2·4·4) = 256, scores + values 2·(2·2·2·4) = 64, FFN 2·(2·2·4·8) = 256
    long encoder = 256 + 64 + 256;
    // decoder: self projections 3·4·32 = 384, self scores + values 2·(2·3·3·4) = 144,
    // cross Q and output 3·2·32 = 192, cross K and V 2·2·32 = 128, cross scores + values 2·(2·3·2·4) = 96,
    // FFN 3·2·64 = 384
    long decoder = 384 + 144 + 192 + 128 + 96 + 384;
    long output = 3 * 2 * 4 * 10;
    assertEquals(2144, encoder + decoder + output);
    assertEquals(2144, FlopCount.forwardPerPair(CONFIG, 10, 2, 3));
    assertEquals(3.0 * 2144 / 3, FlopCount.trainingPerTargetToken(CONFIG, 10, 2, 3), 1e-9);
  }

  @Test
  void layersScaleEverythingButTheOutputProjection() {
    TransformerConfig two = CONFIG.toBuilder().layers(2).build();
    long output = 3 * 2 * 4 * 10;
    assertEquals(2 * (2144 - output) + output, FlopCount.forwardPerPair(two, 10, 2, 3));
  }

  @Test
  void smallModelIsAboutSixTimesItsMatmulParametersPerToken() {
    // small at source = target = 24: the usual 6·N estimate (N the matmul weights, per layer 4d² + 2·d·ff for
    // the encoder, 8d² + 2·d·ff for the decoder, plus d·V) plus the attention terms 12·L·T·d·(...)
    Path conf = Path.of(System.getProperty("sparknmt.build.dir")).resolveSibling("conf");
    TransformerConfig small = Preset.small.config(conf);
    long d = 256;
    long ff = 1024;
    long weightsPerSourceToken = 3 * (4 * d * d + 2 * d * ff);
    long weightsPerTargetToken = 3 * (6 * d * d + 2 * d * ff) + d * 8000;
    long crossKv = 3 * 2 * d * d;
    long attention = 3 * (4 * 24 * d + 4 * 24 * d + 4 * 24 * d);
    double expected = 3 * 2 * (weightsPerSourceToken + weightsPerTargetToken + crossKv) + 3 * attention;
    assertEquals(expected, FlopCount.trainingPerTargetToken(small, 8000, 24, 24), 1e-6);
  }

  @Test
  void gemmRate() {
    assertEquals(2.0 * 1000 * 1000 * 1000 / 0.5 / 1e9, GemmPeak.gflops(1000, 0.5), 1e-12);
  }
}
