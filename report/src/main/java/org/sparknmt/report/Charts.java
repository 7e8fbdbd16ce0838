package org.sparknmt.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The line charts of the run report, in one style. */
public final class Charts {
  static final int WIDTH = 720;
  static final int HEIGHT = 420;
  private static final Color[] COLOURS = {new Color(31, 119, 180), new Color(255, 127, 14), new Color(44, 160, 44),
      new Color(214, 39, 40), new Color(148, 103, 189)};

  /** One curve: points (x[i], y[i]); {@code points} draws markers without a line (e.g. checkpoints). */
  public record Series(String name, double[] x, double[] y, boolean points) {
    public Series {
      if (x.length != y.length) {
        throw new IllegalArgumentException(name + ": " + x.length + " x values for " + y.length + " y values");
      }
    }
  }

  private Charts() {}

  /** A chart of {@code series}; series without points are left out, and the chart says when none has any. */
  public static XYChart lines(String title, String xAxis, String yAxis, List<Series> series) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis)
        .build();
    style(chart);
    int colour = 0;
    for (Series s : series) {
      if (s.x().length == 0) {
        continue;
      }
      XYSeries added = chart.addSeries(s.name(), s.x(), s.y());
      added.setLineColor(COLOURS[colour % COLOURS.length]);
      added.setMarkerColor(COLOURS[colour % COLOURS.length]);
      colour++;
      if (s.points()) {
        added.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        added.setMarker(SeriesMarkers.DIAMOND);
      } else {
        added.setMarker(s.x().length <= 30 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
        added.setLineStyle(new BasicStroke(1.6f));
      }
    }
    if (colour == 0) {
      chart.setTitle(title + " (no data)");
    }
    // one curve needs no legend: the title and axes name it
    chart.getStyler().setLegendVisible(colour > 1);
    return chart;
  }

  /** White background, light grid, readable fonts, the legend below the plot (inside, it hid points). */
  static void style(XYChart chart) {
    var style = chart.getStyler();
    style.setChartBackgroundColor(Color.WHITE);
    style.setPlotBackgroundColor(Color.WHITE);
    style.setPlotGridLinesColor(new Color(225, 225, 225));
    style.setPlotBorderVisible(false);
    style.setChartTitleBoxVisible(false);
    style.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    style.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    style.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    style.setLegendPosition(Styler.LegendPosition.OutsideS);
    style.setLegendLayout(Styler.LegendLayout.Horizontal);
    style.setLegendBorderColor(Color.WHITE);
    style.setMarkerSize(6);
    style.setAntiAlias(true);
    style.setXAxisDecimalPattern("#,##0.###");
    style.setYAxisDecimalPattern("#,##0.######");
  }
}
