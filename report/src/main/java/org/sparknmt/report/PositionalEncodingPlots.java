package org.sparknmt.report;

import java.util.List;
import org.knowm.xchart.XYChart;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.nn.PositionalEncoding;

/**
 * Section 3.5's sinusoidal positional encoding drawn two ways: the table PE[t][i] as a heatmap,
 * and the dot product PE(t)·PE(t+k) against the offset k. The paper chose sinusoids "because we
 * hypothesized it would allow the model to easily learn to attend by relative positions": the dot
 * product is Σ_i cos(k·ω_i), a function of k alone, largest (d_model/2) at k = 0 and symmetric.
 */
public final class PositionalEncodingPlots {
  private PositionalEncodingPlots() {}

  /** The table [length, d_model] as a heatmap on [-1, 1]: rows are positions, columns dimensions. */
  public static Heatmap table(int dModel, int length) {
    double[][] pe = PositionalEncoding.sinusoid(length, dModel, DataType.DOUBLE).toDoubleMatrix();
    return new Heatmap("Positional encoding, d_model = " + dModel, pe, List.of(), List.of(), "position t",
        "dimension i", -1, 1, ColourMap.BLUE_WHITE_RED);
  }

  /**
   * PE(t)·PE(t+k) for k = −(length−1) … length−1 at t = length − 1 (so that every offset stays
   * inside a table of 2·length − 1 rows), index k + length − 1.
   */
  public static double[] offsetDotProducts(int dModel, int length) {
    INDArray pe = PositionalEncoding.sinusoid(2 * length - 1, dModel, DataType.DOUBLE); // [2L-1, d_model]
    int t = length - 1;
    double[] dots = new double[2 * length - 1];
    for (int k = -(length - 1); k <= length - 1; k++) {
      dots[k + length - 1] = pe.getRow(t).mul(pe.getRow(t + k)).sumNumber().doubleValue();
    }
    return dots;
  }

  /** The curve of {@link #offsetDotProducts} against k. */
  public static XYChart offsetCurve(int dModel, int length) {
    double[] dots = offsetDotProducts(dModel, length);
    double[] offsets = new double[dots.length];
    for (int i = 0; i < dots.length; i++) {
      offsets[i] = i - (length - 1);
    }
    return Charts.lines("PE(t)·PE(t+k), d_model = " + dModel + " (the same for every t)", "offset k",
        "dot product", List.of(new Charts.Series("PE(t)·PE(t+k)", offsets, dots, false)));
  }
}
