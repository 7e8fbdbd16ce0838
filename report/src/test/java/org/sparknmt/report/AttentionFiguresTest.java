package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.decode.AttentionMaps;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.Pictures;

/** The files of one sentence's attention: every head of every layer of the three kinds, and an overview per layer. */
class AttentionFiguresTest {
  private static final List<String> SOURCE = List.of("▁a", "▁b", "c", "</s>");
  private static final List<String> DECODER = List.of("<s>", "▁x", "y");

  @BeforeAll
  static void headless() {
    Png.headless();
  }

  @Test
  void writesEveryHeadAndAnOverviewPerLayer() throws IOException {
    SentenceAttention attention = attention();
    Path out = BuildDirs.fresh("attention-figures");
    List<AttentionFigures.Overview> overviews =
        AttentionFigures.write(attention, new org.apache.hadoop.fs.Path(out.toUri()), new Configuration());

    assertEquals(3 * 2, overviews.size(), "three kinds × two layers");
    for (AttentionFigures.Kind kind : AttentionFigures.Kind.values()) {
      for (int layer = 1; layer <= 2; layer++) {
        int[] size = AttentionFigures.heatmap(attention, kind, layer - 1, 0).preferredSize();
        for (int head = 1; head <= 2; head++) {
          Pictures.png(out.resolve(kind.file() + "-layer" + layer + "-head" + head + ".png"), size[0], size[1]);
        }
        BufferedImage overview = Pictures.png(out.resolve(kind.file() + "-layer" + layer + ".png"), 2 * size[0], size[1]);
        BufferedImage head2 = javax.imageio.ImageIO.read(out.resolve(kind.file() + "-layer" + layer + "-head2.png").toFile());
        assertEquals(head2.getRGB(size[0] / 2, size[1] / 2), overview.getRGB(size[0] + size[0] / 2, size[1] / 2),
            "head 2 is the right half of the overview");
      }
    }
  }

  @Test
  void heatmapsHoldTheWeightsWithQueryAndKeyLabels() {
    SentenceAttention attention = attention();
    Heatmap cross = AttentionFigures.heatmap(attention, AttentionFigures.Kind.CROSS, 1, 1);
    assertEquals(DECODER, cross.rowLabels());
    assertEquals(SOURCE, cross.columnLabels());
    assertArrayEquals(attention.maps().crossAttention().get(1).slice(1).toDoubleMatrix()[2], cross.values()[2], 0);
    Heatmap encoder = AttentionFigures.heatmap(attention, AttentionFigures.Kind.ENCODER_SELF, 0, 0);
    assertEquals(SOURCE, encoder.rowLabels());
    assertEquals(1.0, encoder.max(), "one-hot weights reach 1");
    Heatmap decoder = AttentionFigures.heatmap(attention, AttentionFigures.Kind.DECODER_SELF, 0, 0);
    assertEquals(DECODER, decoder.columnLabels());
  }

  @Test
  void aLayersScaleIsItsLargestWeightRoundedUp() {
    assertEquals(0.45, AttentionFigures.scaleMax(0.43), 1e-12);
    assertEquals(0.45, AttentionFigures.scaleMax(0.45), 1e-12);
    assertEquals(0.1, AttentionFigures.scaleMax(0.04), 1e-12, "near-uniform weights are not blown up to full colour");
    assertEquals(1.0, AttentionFigures.scaleMax(1.0), 1e-12);
  }

  @Test
  void labelsMustMatchThePositions() {
    SentenceAttention good = attention();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SentenceAttention("a b c", "x y", List.of("▁a", "</s>"), DECODER, good.maps()));
    assertTrue(e.getMessage().contains("2 source labels for 4 encoder positions"), e.getMessage());
  }

  /** Two layers of two heads: encoder head 1 attends to itself (one-hot), the rest is random softmax rows. */
  private static SentenceAttention attention() {
    INDArray identity = Nd4j.eye(SOURCE.size()).castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE)
        .reshape(1, SOURCE.size(), SOURCE.size());
    INDArray encoder = Nd4j.concat(0, identity, softmax(1, SOURCE.size(), SOURCE.size()));
    List<INDArray> encoderSelf = List.of(encoder, softmax(2, SOURCE.size(), SOURCE.size()));
    List<INDArray> decoderSelf = List.of(softmax(2, DECODER.size(), DECODER.size()), softmax(2, DECODER.size(), DECODER.size()));
    List<INDArray> cross = List.of(softmax(2, DECODER.size(), SOURCE.size()), softmax(2, DECODER.size(), SOURCE.size()));
    return new SentenceAttention("a b c", "x y", SOURCE, DECODER, new AttentionMaps(encoderSelf, decoderSelf, cross));
  }

  /** Random rows that sum to 1: [heads, queries, keys]. */
  private static INDArray softmax(int heads, int queries, int keys) {
    java.util.Random random = new java.util.Random(heads * 100 + queries * 10 + keys);
    double[] w = new double[heads * queries * keys];
    for (int row = 0; row < heads * queries; row++) {
      double sum = 0;
      for (int k = 0; k < keys; k++) {
        w[row * keys + k] = Math.exp(4 * random.nextDouble());
        sum += w[row * keys + k];
      }
      for (int k = 0; k < keys; k++) {
        w[row * keys + k] /= sum;
      }
    }
    return Nd4j.create(w, new long[] {heads, queries, keys}, org.nd4j.linalg.api.buffer.DataType.DOUBLE);
  }
}
