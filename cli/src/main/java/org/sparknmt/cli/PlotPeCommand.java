package org.sparknmt.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.UsageException;
import org.sparknmt.report.Heatmap;
import org.sparknmt.report.Png;
import org.sparknmt.report.PositionalEncodingPlots;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sparknmt plot-pe}: the positional-encoding heatmap and the dot-product-by-offset curve, as PNG files. */
@Command(name = "plot-pe", mixinStandardHelpOptions = true,
    description = "Plot the sinusoidal positional encoding (positional-encoding.png) and PE(t)·PE(t+k) against k (pe-offset-dot-product.png).")
public final class PlotPeCommand implements Callable<Integer> {
  @Option(names = "--d-model", defaultValue = "128", paramLabel = "D", description = "Model dimension. Default: ${DEFAULT-VALUE}.")
  int dModel;

  @Option(names = "--length", defaultValue = "50", paramLabel = "T", description = "Positions. Default: ${DEFAULT-VALUE}.")
  int length;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder (any Hadoop URI or a local path).")
  String out;

  @Override
  public Integer call() throws Exception {
    if (dModel < 2) {
      throw new UsageException("--d-model must be at least 2, got " + dModel);
    }
    if (length < 2) {
      throw new UsageException("--length must be at least 2, got " + length);
    }
    Png.headless();
    Configuration hadoop = new Configuration();
    Path folder = new Path(out);
    Heatmap table = PositionalEncodingPlots.table(dModel, length);
    int[] size = table.preferredSize();
    Path heatmap = new Path(folder, "positional-encoding.png");
    Png.write(Png.render(table.chart(size[0], size[1])), heatmap, hadoop);
    Path curve = new Path(folder, "pe-offset-dot-product.png");
    Png.write(Png.render(PositionalEncodingPlots.offsetCurve(dModel, length)), curve, hadoop);
    System.out.printf("plot-pe: %s%nplot-pe: %s%n", heatmap, curve);
    return 0;
  }
}
