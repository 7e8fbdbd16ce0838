package org.sparknmt.translate;

import java.util.Locale;
import org.sparknmt.base.UsageException;
import org.sparknmt.model.decode.Sampling;

/**
 * The {@code translate} section's keys for what a line's translation holds beyond the best text:
 * n-best lists, alignments, sampling, forced target prefixes, and how they are written. Their defaults
 * (1-best text, beam search, no prefix) leave translation as it is without them. Command-line options
 * ({@code --nbest}, {@code --output-format}, {@code --alignments}, {@code --sample}, {@code --temperature},
 * {@code --seed}, {@code --prefix}) override them through {@link #with}.
 *
 * @param sample {@code none}, {@code topk=K} or {@code topp=P}
 * @param prefix a text file (any Hadoop URI) with the target prefix of each input line, line for line (an
 *     empty line: none), or empty for no prefixes
 */
public record HypothesesConfig(int nbest, OutputFormat outputFormat, boolean alignments, String sample,
    double temperature, long seed, String prefix) implements java.io.Serializable {
  private static final String NONE = "none";

  public HypothesesConfig {
    if (prefix == null) {
      throw new UsageException("prefix (--prefix) must be a file or empty, got null");
    }
    if (nbest < 1) {
      throw new UsageException("nbest (--nbest) must be at least 1, got " + nbest);
    }
    if (outputFormat == OutputFormat.TEXT && (nbest > 1 || alignments)) {
      throw new UsageException((nbest > 1 ? "nbest (--nbest) " + nbest : "alignments (--alignments)")
          + " needs output_format (--output-format) fairseq or json, not text");
    }
    if (!(temperature > 0) || Double.isInfinite(temperature)) {
      throw new UsageException("temperature (--temperature) must be positive and finite, got " + temperature);
    }
    sampling(sample, temperature);
    if (!NONE.equals(sample) && nbest > 1) {
      throw new UsageException("sample (--sample) " + sample + " draws one translation per line: nbest (--nbest) "
          + nbest + " is for beam search");
    }
  }

  /** What translation gives without these keys: the best text of a beam search, written as text. */
  public static HypothesesConfig best() {
    return new HypothesesConfig(1, OutputFormat.TEXT, false, NONE, 1.0, 0, "");
  }

  /**
   * The hypotheses of a caller that stores them itself (a table's columns) rather than writing them in a
   * format, without a prefix file: checked as the command line's are.
   */
  public static HypothesesConfig stored(int nbest, boolean alignments, String sample, double temperature, long seed) {
    // never written: fairseq only lets n-best lists and alignments pass the check made for text output
    return new HypothesesConfig(nbest, OutputFormat.FAIRSEQ, alignments, sample, temperature, seed, "");
  }

  /** This configuration with the options given on the command line (null: not given) replacing its values. */
  public HypothesesConfig with(Integer nbest, OutputFormat outputFormat, Boolean alignments, String sample,
      Double temperature, Long seed, String prefix) {
    return new HypothesesConfig(
        nbest != null ? nbest : this.nbest,
        outputFormat != null ? outputFormat : this.outputFormat,
        alignments != null ? alignments : this.alignments,
        sample != null ? sample : this.sample,
        temperature != null ? temperature : this.temperature,
        seed != null ? seed : this.seed,
        prefix != null ? prefix : this.prefix);
  }

  /** This configuration writing the {@code n} best hypotheses of each line (a format other than text). */
  public HypothesesConfig withNbest(int n) {
    return with(n, null, null, null, null, null, null);
  }

  /** This configuration written as {@code format}. */
  public HypothesesConfig withOutputFormat(OutputFormat format) {
    return with(null, format, null, null, null, null, null);
  }

  /** This configuration with or without each hypothesis's word alignment (a format other than text). */
  public HypothesesConfig withAlignments(boolean on) {
    return with(null, null, on, null, null, null, null);
  }

  /** This configuration sampling as {@code spec} says ({@code none}, {@code topk=K}, {@code topp=P}). */
  public HypothesesConfig withSample(String spec) {
    return with(null, null, null, spec, null, null, null);
  }

  /** This configuration sampling at {@code temperature}. */
  public HypothesesConfig withTemperature(double temperature) {
    return with(null, null, null, null, temperature, null, null);
  }

  /** This configuration sampling from the streams of {@code seed}. */
  public HypothesesConfig withSeed(long seed) {
    return with(null, null, null, null, null, seed, null);
  }

  /** This configuration starting each line's translation with its line of {@code prefixFile} ("" for none). */
  public HypothesesConfig withPrefix(String prefixFile) {
    return with(null, null, null, null, null, null, prefixFile);
  }

  /** Whether lines are translated as without these keys: the best text of a beam search. */
  public boolean plain() {
    return nbest == 1 && outputFormat == OutputFormat.TEXT && !alignments && NONE.equals(sample) && !prefixed();
  }

  /** Whether each line's translation starts with its line of the prefix file. */
  public boolean prefixed() {
    return !prefix.isEmpty();
  }

  /** Fails naming both when the n-best list is longer than the beam that makes it. */
  public void checkBeam(int beam) {
    if (nbest > beam) {
      throw new UsageException("nbest (--nbest) " + nbest + " is more than the beam (--beam) " + beam
          + " keeps: a beam finishes at most that many hypotheses");
    }
  }

  /** The k of top-k sampling, or 0 when not sampling from the top k. */
  public int sampleTopK() {
    Sampling sampling = sampling();
    return sampling == null ? 0 : sampling.topK();
  }

  /** The p of top-p sampling, or 0 when not sampling from the top p. */
  public double sampleTopP() {
    Sampling sampling = sampling();
    return sampling == null ? 0 : sampling.topP();
  }

  /** The sampling asked for, or null for beam search. */
  public Sampling sampling() {
    return sampling(sample, temperature);
  }

  private static Sampling sampling(String sample, double temperature) {
    String spec = sample == null ? "" : sample.strip().toLowerCase(Locale.ROOT);
    if (spec.equals(NONE)) {
      return null;
    }
    try {
      if (spec.startsWith("topk=")) {
        return Sampling.topK(Integer.parseInt(spec.substring(5)), temperature);
      }
      if (spec.startsWith("topp=")) {
        return Sampling.topP(Double.parseDouble(spec.substring(5)), temperature);
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException("sample (--sample) " + sample + ": " + e.getMessage());
    }
    throw new UsageException("sample (--sample) must be none, topk=K (K >= 1) or topp=P (0 < P <= 1), got " + sample);
  }
}
