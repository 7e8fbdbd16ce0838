package org.sparknmt.job.translate;

import org.sparknmt.datasets.UsageException;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;

/**
 * The {@code translate} section: how sentences are searched and batched. Each component is the key
 * {@code translate.<component in snake_case>}, described with its default once, in
 * sparknmt-defaults.conf ({@code sparknmt config --explain} lists them). Command-line options
 * ({@code --beam}, {@code --length-penalty}, ...) override it through {@link #with}.
 */
public record TranslateConfig(int beam, double lengthPenalty, double maxLenA, int maxLenB, int batchSize, int partitions,
    String shortlist) implements java.io.Serializable {
  /** Without a shortlist: every target token is scored. */
  public TranslateConfig(int beam, double lengthPenalty, double maxLenA, int maxLenB, int batchSize, int partitions) {
    this(beam, lengthPenalty, maxLenA, maxLenB, batchSize, partitions, "");
  }

  public TranslateConfig {
    if (shortlist == null) {
      throw new UsageException("shortlist (--shortlist) must be a file, run or empty, got null");
    }
    if (beam < 1) {
      throw new UsageException("beam must be at least 1, got " + beam);
    }
    // NaN fails every comparison, so each bound is written as what must hold
    if (!(lengthPenalty >= 0 && lengthPenalty < Double.POSITIVE_INFINITY)) {
      throw new UsageException("length_penalty (--length-penalty) must be a finite number at least 0, got " + lengthPenalty);
    }
    if (!(maxLenA >= 0 && maxLenA < Double.POSITIVE_INFINITY)) {
      throw new UsageException("max_len_a (--max-len-a) must be a finite number at least 0, got " + maxLenA);
    }
    if (maxLenB < 0 || (maxLenA == 0 && maxLenB == 0)) {
      throw new UsageException("max_len_a and max_len_b must be non-negative and not both 0, got "
          + maxLenA + " and " + maxLenB);
    }
    if (batchSize < 1) {
      throw new UsageException("batch_size must be at least 1, got " + batchSize);
    }
    if (partitions < 0) {
      throw new UsageException("partitions must be non-negative, got " + partitions);
    }
  }

  /** This configuration with the options given on the command line (null: not given) replacing its values. */
  public TranslateConfig with(Integer beam, Double lengthPenalty, Double maxLenA, Integer maxLenB, Integer batchSize,
      Integer partitions) {
    return new TranslateConfig(
        beam != null ? beam : this.beam,
        lengthPenalty != null ? lengthPenalty : this.lengthPenalty,
        maxLenA != null ? maxLenA : this.maxLenA,
        maxLenB != null ? maxLenB : this.maxLenB,
        batchSize != null ? batchSize : this.batchSize,
        partitions != null ? partitions : this.partitions,
        shortlist);
  }

  /**
   * This configuration with another shortlist: a file URI, {@code run} for the run's
   * ({@link ShortlistFile#OF_THE_RUN}), or empty for none; null keeps this one.
   */
  public TranslateConfig withShortlist(String shortlist) {
    return shortlist == null ? this
        : new TranslateConfig(beam, lengthPenalty, maxLenA, maxLenB, batchSize, partitions, shortlist);
  }

  /** Whether searches score only a shortlist's candidates. */
  public boolean shortlisted() {
    return !shortlist.isEmpty();
  }

  /** The model's search options. */
  public DecodingOptions decoding() {
    return new DecodingOptions(beam, new LengthPenalty.Gnmt(lengthPenalty), maxLenA, maxLenB);
  }
}
