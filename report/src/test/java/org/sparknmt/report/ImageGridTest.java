package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tiles in rows of a given width, each at its cell's top left, the rest white. */
class ImageGridTest {
  @Test
  void placesTilesInReadingOrder() {
    BufferedImage grid = ImageGrid.of(List.of(tile(10, 8, Color.RED), tile(6, 8, Color.GREEN), tile(10, 5, Color.BLUE)), 2);
    assertEquals(20, grid.getWidth());
    assertEquals(16, grid.getHeight());
    assertEquals(Color.RED.getRGB(), grid.getRGB(9, 7));
    assertEquals(Color.GREEN.getRGB(), grid.getRGB(10, 0));
    assertEquals(Color.WHITE.getRGB(), grid.getRGB(17, 0), "right of a narrow tile: white");
    assertEquals(Color.BLUE.getRGB(), grid.getRGB(0, 8), "third tile starts the second row");
    assertEquals(Color.WHITE.getRGB(), grid.getRGB(15, 12), "no fourth tile");
  }

  @Test
  void needsTiles() {
    assertThrows(IllegalArgumentException.class, () -> ImageGrid.of(List.of(), 2));
  }

  private static BufferedImage tile(int width, int height, Color colour) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    var g = image.createGraphics();
    g.setColor(colour);
    g.fillRect(0, 0, width, height);
    g.dispose();
    return image;
  }
}
