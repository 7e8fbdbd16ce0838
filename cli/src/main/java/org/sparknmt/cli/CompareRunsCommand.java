package org.sparknmt.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.report.RunComparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code sparknmt compare-runs EXPECTED ACTUAL}: whether run ACTUAL ended exactly as run EXPECTED
 * ({@link RunComparison}); exit 0 when it did, 1 with each difference named when not. Reads only.
 */
@Command(name = "compare-runs", mixinStandardHelpOptions = true,
    description = {"Compare two runs of the same command: the newest checkpoint's parameters and Adam state bit for bit,"
        + " its training state (train_s aside) and the metrics logs line by line (timing fields aside).",
        "Exit 0 when they are the same, 1 naming each difference."})
public final class CompareRunsCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "EXPECTED", description = "Run directory of the reference (undisturbed) run.")
  String expected;

  @Parameters(index = "1", paramLabel = "ACTUAL", description = "Run directory to check against it.")
  String actual;

  @Override
  public Integer call() throws Exception {
    RunComparison comparison = RunComparison.of(expected, actual, new Configuration());
    for (String line : comparison.compared()) {
      System.out.println("same: " + line);
    }
    for (String line : comparison.differences()) {
      System.out.println("DIFFERENT: " + line);
    }
    System.out.println(comparison.differences().isEmpty()
        ? "compare-runs: " + actual + " is identical to " + expected
        : "compare-runs: " + actual + " differs from " + expected + " in " + comparison.differences().size() + " way(s)");
    return comparison.differences().isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
