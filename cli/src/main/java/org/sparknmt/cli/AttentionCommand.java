package org.sparknmt.cli;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.report.AttentionFigures;
import org.sparknmt.report.Png;
import org.sparknmt.report.RunModel;
import org.sparknmt.report.SentenceAttention;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt attention}: heatmaps of every layer and head of the three attentions for one
 * sentence and its greedy translation (or a given target).
 */
@Command(name = "attention", mixinStandardHelpOptions = true,
    description = "Draw the attention weights of every layer and head (encoder self, decoder self, encoder-decoder) for one sentence as PNG heatmaps.")
public final class AttentionCommand implements Callable<Integer> {
  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory (data and checkpoints).")
  String run;

  @Mixin CheckpointOption checkpoint;

  @Option(names = "--src", required = true, paramLabel = "TEXT", description = "The source sentence.")
  String source;

  @Option(names = "--tgt", paramLabel = "TEXT", description = "Force this output instead of the greedy translation.")
  String target;

  @Option(names = "--out", paramLabel = "DIR", description = "Output folder (any Hadoop URI or a local path). Default: RUN/report/attention.")
  String out;

  @Override
  public Integer call() throws Exception {
    Png.headless();
    Configuration hadoop = new Configuration();
    RunModel model = RunModel.open(run, checkpoint.name(), hadoop);
    SentenceAttention attention = model.attention(source, Optional.ofNullable(target));
    Path folder = out != null ? new Path(out) : RunLayout.of(run).reportAttention();
    List<AttentionFigures.Overview> overviews = AttentionFigures.write(attention, folder, hadoop);
    System.out.printf("attention: checkpoint %s%n  source: %s%n  tokens: %s%n  output: %s%n  tokens: %s%n",
        model.checkpoint().path(), attention.source(), String.join(" ", attention.sourceTokens()),
        attention.output(), String.join(" ", attention.decoderTokens()));
    for (AttentionFigures.Overview overview : overviews) {
      System.out.printf("attention: %s%n", overview.file());
    }
    return 0;
  }
}
