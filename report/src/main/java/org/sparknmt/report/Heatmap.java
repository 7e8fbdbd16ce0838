package org.sparknmt.report;

import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.HeatMapSeries;
import org.knowm.xchart.style.Styler;

/**
 * A matrix drawn as an XChart heatmap: row 0 at the top (queries read downwards, as in "The
 * Annotated Transformer"), column 0 at the left, each cell coloured by its value on a fixed
 * {@code [min, max]} scale so that heatmaps side by side compare.
 *
 * @param values [rows][columns]
 * @param rowLabels one per row, or empty for numbered ticks
 * @param columnLabels one per column, or empty for numbered ticks
 */
public record Heatmap(String title, double[][] values, List<String> rowLabels, List<String> columnLabels,
    String rowAxis, String columnAxis, double min, double max, ColourMap colours) {
  /** Pixels a labelled cell gets at least: the token labels must stay readable. */
  static final int LABELLED_CELL = 26;

  public Heatmap {
    if (values.length == 0 || values[0].length == 0) {
      throw new IllegalArgumentException(title + ": a heatmap needs at least one row and one column");
    }
    for (double[] row : values) {
      if (row.length != values[0].length) {
        throw new IllegalArgumentException(title + ": rows of different lengths " + row.length + " and " + values[0].length);
      }
    }
    if (!rowLabels.isEmpty() && rowLabels.size() != values.length) {
      throw new IllegalArgumentException(title + ": " + rowLabels.size() + " row labels for " + values.length + " rows");
    }
    if (!columnLabels.isEmpty() && columnLabels.size() != values[0].length) {
      throw new IllegalArgumentException(title + ": " + columnLabels.size() + " column labels for "
          + values[0].length + " columns");
    }
    if (!(min < max)) {
      throw new IllegalArgumentException(title + ": colour scale min " + min + " must be below max " + max);
    }
    rowLabels = List.copyOf(rowLabels);
    columnLabels = List.copyOf(columnLabels);
  }

  public int rows() {
    return values.length;
  }

  public int columns() {
    return values[0].length;
  }

  /** A size that gives labelled cells room for their labels; numbered axes fit any size. */
  public int[] preferredSize() {
    int cellWidth = columnLabels.isEmpty() ? Math.max(4, 640 / columns()) : LABELLED_CELL;
    int cellHeight = rowLabels.isEmpty() ? Math.max(4, 480 / rows()) : LABELLED_CELL;
    int labelRoom = 7 * Math.max(longest(rowLabels), 3);
    int width = Math.max(360, 120 + labelRoom + cellWidth * columns());
    int height = Math.max(300, 90 + 7 * Math.max(longest(columnLabels), 3) + cellHeight * rows());
    return new int[] {width, height};
  }

  private static int longest(List<String> labels) {
    return labels.stream().mapToInt(String::length).max().orElse(0);
  }

  /** The XChart chart of this heatmap at {@code width × height} pixels. */
  public HeatMapChart chart(int width, int height) {
    HeatMapChart chart = new HeatMapChartBuilder().width(width).height(height).title(title)
        .xAxisTitle(columnAxis).yAxisTitle(rowAxis).build();
    var style = chart.getStyler();
    style.setChartBackgroundColor(Color.WHITE);
    style.setPlotBackgroundColor(Color.WHITE);
    style.setPlotBorderVisible(false);
    style.setPlotGridLinesVisible(false);
    style.setPlotContentSize(1.0);
    style.setChartTitleBoxVisible(false);
    style.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    style.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    style.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    style.setXAxisLabelRotation(columnLabels.isEmpty() ? 0 : 90);
    style.setLegendPosition(Styler.LegendPosition.OutsideE);
    style.setLegendBorderColor(Color.WHITE);
    style.setRangeColors(colours.stops());
    style.setHeatMapValueDecimalPattern("0.##");
    // cells filled at fractional pixel positions leave hairline seams; a border in the cell's own colour closes them
    style.setDrawBorder(true);
    style.setAntiAlias(true);
    HeatMapSeries series = chart.addSeries(title, axis(columnLabels, columns()), reversed(axis(rowLabels, rows())),
        cells());
    series.setMin(min);
    series.setMax(max);
    return chart;
  }

  /** XChart's heat data, {x, y, value}, with y counted from the bottom: row r is y = rows − 1 − r. */
  private List<Number[]> cells() {
    List<Number[]> cells = new ArrayList<>(rows() * columns());
    for (int r = 0; r < rows(); r++) {
      for (int c = 0; c < columns(); c++) {
        cells.add(new Number[] {c, rows() - 1 - r, values[r][c]});
      }
    }
    return cells;
  }

  /** The labels, or for a numbered axis every {@link #numberStep}-th index (blank between: one tick a cell). */
  private static List<String> axis(List<String> labels, int n) {
    if (!labels.isEmpty()) {
      return labels;
    }
    int step = numberStep(n);
    List<String> numbers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      numbers.add(i % step == 0 ? Integer.toString(i) : " "); // XChart cannot lay out an empty label
    }
    return numbers;
  }

  /** 1, 2, 5, 10, 20, 50 ...: the smallest that numbers at most 10 of {@code n} cells. */
  static int numberStep(int n) {
    for (int scale = 1; ; scale *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        if ((n + m * scale - 1) / (m * scale) <= 10) {
          return m * scale;
        }
      }
    }
  }

  private static List<Object> reversed(List<?> labels) {
    List<Object> out = new ArrayList<>(labels);
    java.util.Collections.reverse(out);
    return out;
  }
}
