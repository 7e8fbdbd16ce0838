package org.sparknmt.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.List;

/** Rendered charts placed side by side in rows of {@code columns}: the overview of all heads of a layer. */
public final class ImageGrid {
  private ImageGrid() {}

  /** Tiles in reading order, each in a cell as large as the largest tile, on white. */
  public static BufferedImage of(List<BufferedImage> tiles, int columns) {
    if (tiles.isEmpty() || columns < 1) {
      throw new IllegalArgumentException("an image grid needs tiles and at least one column, got "
          + tiles.size() + " tiles in " + columns + " columns");
    }
    int cellWidth = tiles.stream().mapToInt(BufferedImage::getWidth).max().orElseThrow();
    int cellHeight = tiles.stream().mapToInt(BufferedImage::getHeight).max().orElseThrow();
    int used = Math.min(columns, tiles.size());
    int rows = (tiles.size() + columns - 1) / columns;
    BufferedImage grid = new BufferedImage(cellWidth * used, cellHeight * rows, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = grid.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, grid.getWidth(), grid.getHeight());
      for (int i = 0; i < tiles.size(); i++) {
        g.drawImage(tiles.get(i), (i % columns) * cellWidth, (i / columns) * cellHeight, null);
      }
    } finally {
      g.dispose();
    }
    return grid;
  }
}
