package org.sparknmt.report;

import java.awt.Color;

/**
 * The colour scales of the heatmaps, as stops that XChart interpolates linearly between a
 * heatmap's minimum and maximum.
 */
public enum ColourMap {
  /**
   * Matplotlib's viridis (9 stops): perceptually uniform, and its lightness rises monotonically
   * from dark purple (low) to yellow (high), so a higher weight is always a brighter cell.
   */
  VIRIDIS(new Color(68, 1, 84), new Color(71, 44, 122), new Color(59, 81, 139), new Color(44, 113, 142),
      new Color(33, 144, 141), new Color(39, 173, 129), new Color(92, 200, 99), new Color(170, 220, 50),
      new Color(253, 231, 37)),
  /** Blue, white, red (ColorBrewer RdBu reversed): for values around 0 such as sines and cosines. */
  BLUE_WHITE_RED(new Color(33, 102, 172), new Color(103, 169, 207), new Color(209, 229, 240),
      new Color(247, 247, 247), new Color(253, 219, 199), new Color(239, 138, 98), new Color(178, 24, 43));

  private final Color[] stops;

  ColourMap(Color... stops) {
    this.stops = stops;
  }

  /** The stops, low to high (a copy: XChart keeps the array it is given). */
  public Color[] stops() {
    return stops.clone();
  }

  /** The colour of {@code fraction} in [0, 1] of the scale, interpolated as XChart does. */
  public Color at(double fraction) {
    double position = Math.max(0, Math.min(1, fraction)) * (stops.length - 1);
    int low = Math.min((int) position, stops.length - 2);
    double t = position - low;
    Color a = stops[low];
    Color b = stops[low + 1];
    return new Color((int) (a.getRed() + t * (b.getRed() - a.getRed())),
        (int) (a.getGreen() + t * (b.getGreen() - a.getGreen())),
        (int) (a.getBlue() + t * (b.getBlue() - a.getBlue())));
  }
}
