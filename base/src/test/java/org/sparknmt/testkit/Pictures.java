package org.sparknmt.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;

/** Checks on rendered pictures: PNG files, their size, and where and how their pixels differ. */
public final class Pictures {
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  private Pictures() {}

  /** Reads {@code file}, asserting that it is a PNG of {@code width × height} with more than a few colours. */
  public static BufferedImage png(Path file, int width, int height) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, 8), file + " does not start with the PNG signature");
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
    assertNotNull(image, file + " is not decodable");
    assertEquals(width, image.getWidth(), file + " width");
    assertEquals(height, image.getHeight(), file + " height");
    assertTrue(colours(image) > 20, file + " has only " + colours(image) + " colours: blank?");
    return image;
  }

  public static int colours(BufferedImage image) {
    Set<Integer> seen = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        seen.add(image.getRGB(x, y));
      }
    }
    return seen.size();
  }

  /** The bounding box of the pixels that differ between two images of one size, or null if none does. */
  public static Rectangle changed(BufferedImage a, BufferedImage b) {
    assertEquals(a.getWidth(), b.getWidth());
    assertEquals(a.getHeight(), b.getHeight());
    Rectangle box = null;
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        if (a.getRGB(x, y) != b.getRGB(x, y)) {
          box = box == null ? new Rectangle(x, y, 1, 1) : box.union(new Rectangle(x, y, 1, 1));
        }
      }
    }
    return box;
  }

  public static Color at(BufferedImage image, int x, int y) {
    return new Color(image.getRGB(x, y));
  }

  /** Relative luminance (ITU-R BT.709) in [0, 255]. */
  public static double lightness(Color c) {
    return 0.2126 * c.getRed() + 0.7152 * c.getGreen() + 0.0722 * c.getBlue();
  }

  public static void assertClose(Color expected, Color actual, int tolerance, String what) {
    assertTrue(Math.abs(expected.getRed() - actual.getRed()) <= tolerance
            && Math.abs(expected.getGreen() - actual.getGreen()) <= tolerance
            && Math.abs(expected.getBlue() - actual.getBlue()) <= tolerance,
        what + ": expected " + expected + ", got " + actual);
  }
}
