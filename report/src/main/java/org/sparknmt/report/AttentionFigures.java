package org.sparknmt.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The attention heatmaps of one sentence pair: one PNG per layer and head of encoder
 * self-attention, decoder self-attention and encoder-decoder attention
 * ({@code KIND-layerL-headH.png}), and per layer one overview with its heads side by side
 * ({@code KIND-layerL.png}), as "The Annotated Transformer" draws them. Rows are queries, columns
 * keys. The heads of a layer share one colour scale, 0 to {@link #scaleMax} of the layer's weights,
 * so that they compare side by side; a fixed 0-1 scale left the many small weights of a long
 * sentence all in the darkest colour.
 */
public final class AttentionFigures {
  /** Heads per row of an overview: more would make it too wide to view. */
  static final int OVERVIEW_COLUMNS = 4;

  /** The three attentions of the Transformer (Figure 1). */
  public enum Kind {
    ENCODER_SELF("encoder-self", "encoder self-attention"),
    DECODER_SELF("decoder-self", "decoder self-attention"),
    CROSS("cross", "encoder-decoder attention");

    private final String file;
    private final String title;

    Kind(String file, String title) {
      this.file = file;
      this.title = title;
    }

    public String file() {
      return file;
    }

    public String title() {
      return title;
    }

    List<INDArray> layers(SentenceAttention a) {
      return switch (this) {
        case ENCODER_SELF -> a.maps().encoderSelf();
        case DECODER_SELF -> a.maps().decoderSelf();
        case CROSS -> a.maps().crossAttention();
      };
    }

    List<String> queries(SentenceAttention a) {
      return this == ENCODER_SELF ? a.sourceTokens() : a.decoderTokens();
    }

    List<String> keys(SentenceAttention a) {
      return this == DECODER_SELF ? a.decoderTokens() : a.sourceTokens();
    }
  }

  /** An overview image written for one layer of one kind. */
  public record Overview(Kind kind, int layer, Path file) {}

  private AttentionFigures() {}

  /** The heatmap of one head (layer and head counted from 1 in titles, from 0 here) on the layer's scale. */
  public static Heatmap heatmap(SentenceAttention attention, Kind kind, int layer, int head) {
    INDArray layerWeights = kind.layers(attention).get(layer); // [heads, t_q, t_k]
    INDArray weights = layerWeights.get(NDArrayIndex.point(head), NDArrayIndex.all(), NDArrayIndex.all()); // [t_q, t_k]
    return new Heatmap(kind.title() + ", layer " + (layer + 1) + ", head " + (head + 1), weights.toDoubleMatrix(),
        kind.queries(attention), kind.keys(attention), "query", "key", 0, scaleMax(layerWeights.maxNumber().doubleValue()),
        ColourMap.VIRIDIS);
  }

  /** The top of a layer's colour scale: its largest weight rounded up to 0.05, at least 0.1, at most 1. */
  static double scaleMax(double largestWeight) {
    return Math.min(1, Math.max(0.1, Math.ceil(largestWeight * 20 - 1e-9) / 20));
  }

  /** Writes every head's PNG and every layer's overview under {@code folder}; returns the overviews. */
  public static List<Overview> write(SentenceAttention attention, Path folder, Configuration hadoop) throws IOException {
    List<Overview> overviews = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      List<INDArray> layers = kind.layers(attention);
      for (int layer = 0; layer < layers.size(); layer++) {
        int heads = (int) layers.get(layer).size(0);
        List<BufferedImage> tiles = new ArrayList<>(heads);
        for (int head = 0; head < heads; head++) {
          Heatmap map = heatmap(attention, kind, layer, head);
          int[] size = map.preferredSize();
          BufferedImage image = Png.render(map.chart(size[0], size[1]));
          Png.write(image, new Path(folder, kind.file() + "-layer" + (layer + 1) + "-head" + (head + 1) + ".png"), hadoop);
          tiles.add(image);
        }
        Path overview = new Path(folder, kind.file() + "-layer" + (layer + 1) + ".png");
        Png.write(ImageGrid.of(tiles, Math.min(heads, OVERVIEW_COLUMNS)), overview, hadoop);
        overviews.add(new Overview(kind, layer + 1, overview));
      }
    }
    return overviews;
  }
}
