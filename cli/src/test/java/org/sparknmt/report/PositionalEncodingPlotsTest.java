package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.sparknmt.cli.Main;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.Pictures;

/** Section 3.5's encoding drawn: the dot product by offset is Σ cos(k·ω_i), and plot-pe writes both pictures. */
class PositionalEncodingPlotsTest {
  @Test
  void dotProductDependsOnTheOffsetOnly() {
    int d = 16;
    int length = 12;
    double[] dots = PositionalEncodingPlots.offsetDotProducts(d, length);
    assertEquals(2 * length - 1, dots.length);
    for (int k = -(length - 1); k <= length - 1; k++) {
      double expected = 0;
      for (int i = 0; i < d; i += 2) {
        expected += Math.cos(k / Math.pow(10000.0, (double) i / d));
      }
      assertEquals(expected, dots[k + length - 1], 1e-9, "k = " + k);
    }
    assertEquals(d / 2.0, dots[length - 1], 1e-9, "PE(t)·PE(t) = d_model/2");
    for (int k = 1; k < length; k++) {
      assertTrue(dots[length - 1 + k] < dots[length - 1], "largest at k = 0");
    }
  }

  @Test
  void plotPeWritesTheHeatmapAndTheCurve() throws Exception {
    Path out = BuildDirs.fresh("plot-pe");
    int code = Main.commandLine().execute("plot-pe", "--d-model", "32", "--length", "20", "--out", out.toString());
    assertEquals(0, code);
    int[] size = PositionalEncodingPlots.table(32, 20).preferredSize();
    BufferedImage table = Pictures.png(out.resolve("positional-encoding.png"), size[0], size[1]);
    Pictures.png(out.resolve("pe-offset-dot-product.png"), Charts.WIDTH, Charts.HEIGHT);
    // column 0 is sin(t): blue-white-red shows both signs over 20 positions; column 1, cos(t·1), too
    int reddish = 0;
    int bluish = 0;
    for (int y = 0; y < table.getHeight(); y++) {
      for (int x = 0; x < table.getWidth(); x++) {
        java.awt.Color c = Pictures.at(table, x, y);
        reddish += c.getRed() > c.getBlue() + 80 ? 1 : 0;
        bluish += c.getBlue() > c.getRed() + 80 ? 1 : 0;
      }
    }
    assertTrue(reddish > 1000 && bluish > 1000, "both signs drawn: " + reddish + " red, " + bluish + " blue pixels");
    assertTrue(Files.size(out.resolve("pe-offset-dot-product.png")) > 5000);
  }

  @Test
  void plotPeRejectsTooSmallSizes() {
    assertEquals(2, Main.commandLine().execute("plot-pe", "--d-model", "1", "--out", BuildDirs.fresh("pe-bad").toString()));
  }
}
