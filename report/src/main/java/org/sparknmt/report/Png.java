package org.sparknmt.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import javax.imageio.ImageIO;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Charts rendered to images and PNG files on any Hadoop file system. */
public final class Png {
  private Png() {}

  /**
   * Makes AWT headless (no display needed, as on cluster nodes); must run before the first chart
   * is drawn, since AWT reads the property once.
   */
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  /** The chart painted at its own size. */
  public static BufferedImage render(Chart<?, ?> chart) {
    return BitmapEncoder.getBufferedImage(chart);
  }

  /** Writes {@code image} as PNG to {@code file}, replacing it. */
  public static void write(BufferedImage image, Path file, Configuration hadoop) throws IOException {
    try (OutputStream out = file.getFileSystem(hadoop).create(file, true)) {
      if (!ImageIO.write(image, "png", out)) {
        throw new IOException("no PNG writer in this JVM for " + file);
      }
    }
  }
}
