package org.sparknmt.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.base.UsageException;
import org.sparknmt.report.Png;
import org.sparknmt.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparknmt report}: the run report, {@code RUN/report/index.html} with PNG plots beside it. */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Write RUN/report/index.html: loss, learning rate and speed by step, validation BLEU by checkpoint, evaluation results, the data manifest and attention maps of validation sentences, with PNG plots beside it.")
public final class ReportCommand implements Callable<Integer> {
  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory.")
  String run;

  @Mixin CheckpointOption checkpoint;

  @Option(names = "--sentences", defaultValue = "3", paramLabel = "N",
      description = "Validation sentences whose attention maps are drawn (0: none). Default: ${DEFAULT-VALUE}.")
  int sentences;

  @Override
  public Integer call() throws Exception {
    if (sentences < 0) {
      throw new UsageException("--sentences must be 0 or more, got " + sentences);
    }
    Png.headless();
    RunReport.Result result = new RunReport(run, new Configuration()).write(checkpoint.name(), sentences);
    System.out.printf("report: %s (%d images)%n", result.index(), result.images().size());
    return 0;
  }
}
