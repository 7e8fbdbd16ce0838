package org.sparknmt.cli;

import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.OutputFormat;
import picocli.CommandLine.Option;

/** {@code sparknmt translate}'s options for n-best lists, alignments, sampling and prefixes: the {@code translate} keys of {@link HypothesesConfig}. */
public final class HypothesesOptions {
  @Option(names = "--nbest", paramLabel = "N", descriptionKey = "translate.nbest")
  Integer nbest;

  @Option(names = "--alignments", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
      descriptionKey = "translate.alignments")
  Boolean alignments;

  @Option(names = "--sample", paramLabel = "none|topk=K|topp=P", descriptionKey = "translate.sample")
  String sample;

  @Option(names = "--temperature", paramLabel = "T", descriptionKey = "translate.temperature")
  Double temperature;

  @Option(names = "--seed", paramLabel = "S", descriptionKey = "translate.seed")
  Long seed;

  @Option(names = "--prefix", paramLabel = "FILE", descriptionKey = "translate.prefix")
  String prefix;

  /** Whether --nbest, --alignments, --sample or --prefix is given. */
  public boolean given() {
    return nbest != null || alignments != null || sample != null || prefix != null;
  }

  /**
   * The effective configuration: the {@code translate} section of {@code config}, these options over it.
   *
   * @param outputFormat {@code --output-format} when it names a hypothesis format (text, fairseq, json), else null
   */
  public HypothesesConfig config(ConfigOptions config, OutputFormat outputFormat) {
    return config.load().bind("translate", HypothesesConfig.class)
        .with(nbest, outputFormat, alignments, sample, temperature, seed, prefix);
  }
}
