package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.Pictures;

/** A heatmap drawn headless: a valid PNG of its size whose cells take the colour map's colour of their value, row 0 on top. */
class HeatmapTest {
  private static final List<String> QUERIES = List.of("▁The", "▁cat", "▁sat", "</s>");
  private static final List<String> KEYS = List.of("▁Die", "▁Katze", "▁saß", ".", "</s>");

  @BeforeAll
  static void headless() {
    Png.headless();
  }

  @Test
  void writesAPngOfItsPreferredSize() throws IOException {
    Heatmap map = map(flat(0.2));
    int[] size = map.preferredSize();
    Path file = BuildDirs.fresh("heatmap").resolve("map.png");
    Png.write(Png.render(map.chart(size[0], size[1])), new org.apache.hadoop.fs.Path(file.toUri()), new Configuration());
    Pictures.png(file, size[0], size[1]);
    assertTrue(size[0] >= Heatmap.LABELLED_CELL * KEYS.size() && size[1] >= Heatmap.LABELLED_CELL * QUERIES.size(),
        "labelled cells must get room: " + size[0] + "x" + size[1]);
  }

  @Test
  void aHigherWeightIsABrighterCellAtItsRowAndColumn() {
    double[][] base = flat(0.1);
    BufferedImage plain = render(map(base));

    double[][] topRight = flat(0.1);
    topRight[0][4] = 0.9;
    BufferedImage withTopRight = render(map(topRight));
    Rectangle cellTopRight = Pictures.changed(plain, withTopRight);

    double[][] bottomLeft = flat(0.1);
    bottomLeft[3][0] = 0.6;
    BufferedImage withBottomLeft = render(map(bottomLeft));
    Rectangle cellBottomLeft = Pictures.changed(plain, withBottomLeft);

    assertNotNull(cellTopRight, "changing one weight changed no pixel");
    assertNotNull(cellBottomLeft, "changing one weight changed no pixel");
    assertTrue(cellTopRight.y + cellTopRight.height <= cellBottomLeft.y,
        "row 0 must be drawn above row 3: " + cellTopRight + " vs " + cellBottomLeft);
    assertTrue(cellTopRight.x >= cellBottomLeft.x + cellBottomLeft.width,
        "column 4 must be drawn right of column 0: " + cellTopRight + " vs " + cellBottomLeft);
    // one cell each: about a fifth of the plot's width and a quarter of its height, the same for both
    assertEquals(cellTopRight.width, cellBottomLeft.width, 2);
    assertEquals(cellTopRight.height, cellBottomLeft.height, 2);

    int x = (int) cellTopRight.getCenterX();
    int y = (int) cellTopRight.getCenterY();
    Pictures.assertClose(ColourMap.VIRIDIS.at(0.1), Pictures.at(plain, x, y), 3, "weight 0.1");
    Pictures.assertClose(ColourMap.VIRIDIS.at(0.9), Pictures.at(withTopRight, x, y), 3, "weight 0.9");
    int bx = (int) cellBottomLeft.getCenterX();
    int by = (int) cellBottomLeft.getCenterY();
    Pictures.assertClose(ColourMap.VIRIDIS.at(0.6), Pictures.at(withBottomLeft, bx, by), 3, "weight 0.6");
    double low = Pictures.lightness(Pictures.at(plain, x, y));
    double middle = Pictures.lightness(Pictures.at(withBottomLeft, bx, by));
    double high = Pictures.lightness(Pictures.at(withTopRight, x, y));
    assertTrue(low < middle && middle < high, "viridis: higher weight, brighter cell: " + low + " " + middle + " " + high);
  }

  @Test
  void colourMapsRiseInLightness() {
    double previous = -1;
    for (int i = 0; i <= 20; i++) {
      double l = Pictures.lightness(ColourMap.VIRIDIS.at(i / 20.0));
      assertTrue(l > previous, "viridis lightness must rise at " + i / 20.0);
      previous = l;
    }
    Pictures.assertClose(ColourMap.VIRIDIS.stops()[0], ColourMap.VIRIDIS.at(-3), 0, "below the scale: its low end");
  }

  @Test
  void numberedAxesLabelAboutTenCells() {
    assertEquals(1, Heatmap.numberStep(10));
    assertEquals(2, Heatmap.numberStep(11));
    assertEquals(5, Heatmap.numberStep(50));
    assertEquals(20, Heatmap.numberStep(128));
    assertEquals(100, Heatmap.numberStep(512));
  }

  @Test
  void badShapesAreNamedErrors() {
    IllegalArgumentException labels = assertThrows(IllegalArgumentException.class,
        () -> new Heatmap("t", flat(0.5), List.of("a"), KEYS, "q", "k", 0, 1, ColourMap.VIRIDIS));
    assertTrue(labels.getMessage().contains("1 row labels for 4 rows"), labels.getMessage());
    IllegalArgumentException ragged = assertThrows(IllegalArgumentException.class,
        () -> new Heatmap("t", new double[][] {{1, 2}, {3}}, List.of(), List.of(), "q", "k", 0, 1, ColourMap.VIRIDIS));
    assertTrue(ragged.getMessage().contains("rows of different lengths"), ragged.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new Heatmap("t", flat(0.5), QUERIES, KEYS, "q", "k", 1, 1, ColourMap.VIRIDIS));
  }

  private static Heatmap map(double[][] values) {
    return new Heatmap("cross-attention", values, QUERIES, KEYS, "query", "key", 0, 1, ColourMap.VIRIDIS);
  }

  private static BufferedImage render(Heatmap map) {
    int[] size = map.preferredSize();
    return Png.render(map.chart(size[0], size[1]));
  }

  private static double[][] flat(double value) {
    double[][] values = new double[QUERIES.size()][KEYS.size()];
    for (double[] row : values) {
      java.util.Arrays.fill(row, value);
    }
    return values;
  }
}
