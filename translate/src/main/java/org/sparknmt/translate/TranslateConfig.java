package org.sparknmt.translate;

import java.util.function.Supplier;
import org.sparknmt.base.UsageException;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;

/**
 * The {@code translate} section: how sentences are searched ({@link DecodingOptions}, as the search takes
 * them) and batched. Its keys are the parameters of {@link #fromKeys}, {@code translate.<parameter in
 * snake_case>}, described with their defaults once, in sparknmt-defaults.conf ({@code sparknmt config
 * --explain} lists them). Command-line options ({@code --beam}, {@code --length-penalty}, ...) override
 * them through {@link #with}.
 *
 * @param search the search; its length penalty is GNMT's, whose α is the key {@code length_penalty}
 */
public record TranslateConfig(DecodingOptions search, int batchSize, int partitions, String shortlist)
    implements java.io.Serializable {
  public TranslateConfig {
    if (!(search.lengthPenalty() instanceof LengthPenalty.Gnmt)) {
      throw new IllegalArgumentException("translate's length penalty is GNMT's (the key length_penalty is its alpha),"
          + " got " + search.lengthPenalty());
    }
    if (shortlist == null) {
      throw new UsageException("shortlist (--shortlist) must be a file, run or empty, got null");
    }
    if (batchSize < 1) {
      throw new UsageException("batch_size must be at least 1, got " + batchSize);
    }
    if (partitions < 0) {
      throw new UsageException("partitions must be non-negative, got " + partitions);
    }
  }

  /** {@code search} in batches of {@code batchSize} sentences, the input's own partitions, without a shortlist. */
  public static TranslateConfig of(DecodingOptions search, int batchSize) {
    return new TranslateConfig(search, batchSize, 0, "");
  }

  /** The section as its keys give it: how the config binder builds it; invalid values are usage errors naming their key. */
  public static TranslateConfig fromKeys(int beam, double lengthPenalty, double maxLenA, int maxLenB, int batchSize,
      int partitions, String shortlist) {
    return new TranslateConfig(searchOf(() -> DecodingOptions.beam(beam)
        .withLengthPenalty(new LengthPenalty.Gnmt(lengthPenalty)).withMaxLength(maxLenA, maxLenB)),
        batchSize, partitions, shortlist);
  }

  /**
   * The search {@code settings} build, an invalid setting a usage error naming its key and option: how keys,
   * options and a table transformer's params (which carry the keys' names) become a search.
   */
  public static DecodingOptions searchOf(Supplier<DecodingOptions> settings) {
    try {
      return settings.get();
    } catch (DecodingOptions.Invalid e) {
      String key = switch (e.setting()) {
        case BEAM_WIDTH -> "beam";
        case LENGTH_PENALTY -> "length_penalty (--length-penalty)";
        case MAX_LENGTH_A -> "max_len_a (--max-len-a)";
        case MAX_LENGTH -> "max_len_a and max_len_b";
      };
      throw new UsageException(key + " " + e.requirement(), e);
    }
  }

  /** This configuration with the options given on the command line (null: not given) replacing its values. */
  public TranslateConfig with(Integer beam, Double lengthPenalty, Double maxLenA, Integer maxLenB, Integer batchSize,
      Integer partitions) {
    return fromKeys(
        beam != null ? beam : search.beamWidth(),
        lengthPenalty != null ? lengthPenalty : search.lengthPenalty().alpha(),
        maxLenA != null ? maxLenA : search.maxLengthA(),
        maxLenB != null ? maxLenB : search.maxLengthB(),
        batchSize != null ? batchSize : this.batchSize,
        partitions != null ? partitions : this.partitions,
        shortlist);
  }

  /** This configuration searching with {@code search} (its length penalty GNMT's). */
  public TranslateConfig withSearch(DecodingOptions search) {
    return new TranslateConfig(search, batchSize, partitions, shortlist);
  }

  /** This configuration translating {@code batchSize} sentences a batch. */
  public TranslateConfig withBatchSize(int batchSize) {
    return new TranslateConfig(search, batchSize, partitions, shortlist);
  }

  /** This configuration splitting the input into {@code partitions} line ranges (0: the input's splits). */
  public TranslateConfig withPartitions(int partitions) {
    return new TranslateConfig(search, batchSize, partitions, shortlist);
  }

  /**
   * This configuration with another shortlist: a file URI, {@code run} for the run's
   * ({@link ShortlistFile#OF_THE_RUN}), or empty for none; null keeps this one.
   */
  public TranslateConfig withShortlist(String shortlist) {
    return shortlist == null ? this : new TranslateConfig(search, batchSize, partitions, shortlist);
  }

  /** Whether searches score only a shortlist's candidates. */
  public boolean shortlisted() {
    return !shortlist.isEmpty();
  }
}
