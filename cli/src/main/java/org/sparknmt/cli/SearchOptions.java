package org.sparknmt.cli;

import org.sparknmt.translate.TranslateConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The search options of commands that translate: the {@code translate} config section, overridden by options. */
public final class SearchOptions {
  @Mixin ConfigOptions configOptions;

  @Option(names = "--beam", paramLabel = "N", descriptionKey = "translate.beam")
  Integer beam;

  @Option(names = "--length-penalty", paramLabel = "A", descriptionKey = "translate.length_penalty")
  Double lengthPenalty;

  @Option(names = "--max-len-a", paramLabel = "A", descriptionKey = "translate.max_len_a")
  Double maxLenA;

  @Option(names = "--max-len-b", paramLabel = "B", descriptionKey = "translate.max_len_b")
  Integer maxLenB;

  @Option(names = "--batch-size", paramLabel = "N", descriptionKey = "translate.batch_size")
  Integer batchSize;

  @Option(names = "--partitions", paramLabel = "N", descriptionKey = "translate.partitions")
  Integer partitions;

  @Option(names = "--shortlist", paramLabel = "FILE|run", descriptionKey = "translate.shortlist")
  String shortlist;

  /** The configuration files and --set overrides the search's keys are read from. */
  public ConfigOptions configOptions() {
    return configOptions;
  }

  /** The effective search configuration. */
  public TranslateConfig config() {
    return configOptions.load().bind("translate", TranslateConfig.class)
        .with(beam, lengthPenalty, maxLenA, maxLenB, batchSize, partitions).withShortlist(shortlist);
  }
}
