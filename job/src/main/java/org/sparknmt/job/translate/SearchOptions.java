package org.sparknmt.job.translate;

import org.sparknmt.job.cli.ConfigOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The search options of commands that translate: the {@code translate} config section, overridden by options. */
public final class SearchOptions {
  @Mixin ConfigOptions configOptions;

  @Option(names = "--beam", paramLabel = "N", description = "Beam width; 1 = greedy search. Default: translate.beam (4).")
  Integer beam;

  @Option(names = "--length-penalty", paramLabel = "A", description = "GNMT length penalty alpha; 0 = none. Default: translate.length_penalty (0.6).")
  Double lengthPenalty;

  @Option(names = "--max-len-a", paramLabel = "A", description = "Output limit a*|source|+b subwords: a. Default: translate.max_len_a (1.5).")
  Double maxLenA;

  @Option(names = "--max-len-b", paramLabel = "B", description = "Output limit a*|source|+b subwords: b. Default: translate.max_len_b (10).")
  Integer maxLenB;

  @Option(names = "--batch-size", paramLabel = "N", description = "Sentences searched together (after sorting by length). Default: translate.batch_size (32).")
  Integer batchSize;

  @Option(names = "--partitions", paramLabel = "N", description = "Spread the input over N Spark partitions (contiguous line ranges); 0 = the input's splits. Default: translate.partitions (0).")
  Integer partitions;

  /** The effective search configuration. */
  public TranslateConfig config() {
    return configOptions.load().bind("translate", TranslateConfig.class)
        .with(beam, lengthPenalty, maxLenA, maxLenB, batchSize, partitions);
  }
}
