package org.sparknmt.model.decode;

/**
 * How to search: built by name ({@code DecodingOptions.beam(4).withLengthPenalty(new LengthPenalty.Gnmt(0.6))
 * .withMaxLength(1.5, 10)}) and validated once, here; an invalid setting is an {@link Invalid} naming which,
 * so that a caller reading the settings from elsewhere (a config key, an option) can name its own.
 *
 * @param beamWidth hypotheses kept per sentence (1: greedy search)
 * @param lengthPenalty normalization of finished hypotheses' scores
 * @param maxLengthA output length limit a·|source| + b (fairseq's max_len_a, max_len_b), EOS included
 * @param maxLengthB see maxLengthA
 */
public record DecodingOptions(int beamWidth, LengthPenalty lengthPenalty, double maxLengthA, int maxLengthB)
    implements java.io.Serializable {
  /** Scores as summed log-probabilities: α = 0 leaves them as they are. */
  private static final LengthPenalty UNNORMALIZED = new LengthPenalty.Power(0);

  public DecodingOptions {
    if (beamWidth < 1) {
      throw new Invalid(Setting.BEAM_WIDTH, "must be at least 1, got " + beamWidth);
    }
    // NaN fails every comparison, so each bound is written as what must hold
    double alpha = lengthPenalty.alpha();
    if (!(alpha >= 0 && alpha < Double.POSITIVE_INFINITY)) {
      throw new Invalid(Setting.LENGTH_PENALTY, "must be a finite number at least 0, got " + alpha);
    }
    if (!(maxLengthA >= 0 && maxLengthA < Double.POSITIVE_INFINITY)) {
      throw new Invalid(Setting.MAX_LENGTH_A, "must be a finite number at least 0, got " + maxLengthA);
    }
    if (maxLengthB < 0 || (maxLengthA == 0 && maxLengthB == 0)) {
      throw new Invalid(Setting.MAX_LENGTH, "must be non-negative and not both 0, got " + maxLengthA + " and "
          + maxLengthB);
    }
  }

  /** Beam search keeping {@code width} hypotheses, scores unnormalized, outputs of at most 1.5·|source| + 10 tokens. */
  public static DecodingOptions beam(int width) {
    return new DecodingOptions(width, UNNORMALIZED, 1.5, 10);
  }

  /**
   * Greedy search with at most 1.5·|source| + 10 tokens: the fixed search of validation BLEU and of
   * the attention maps (translation takes its search from the {@code translate} config section).
   */
  public static DecodingOptions greedy() {
    return beam(1);
  }

  /** These options keeping {@code width} hypotheses per sentence. */
  public DecodingOptions withBeamWidth(int width) {
    return new DecodingOptions(width, lengthPenalty, maxLengthA, maxLengthB);
  }

  /** These options normalizing finished hypotheses' scores with {@code penalty}. */
  public DecodingOptions withLengthPenalty(LengthPenalty penalty) {
    return new DecodingOptions(beamWidth, penalty, maxLengthA, maxLengthB);
  }

  /** These options stopping outputs at a·|source| + b tokens, EOS included. */
  public DecodingOptions withMaxLength(double a, int b) {
    return new DecodingOptions(beamWidth, lengthPenalty, a, b);
  }

  /** The longest output (EOS included) for a source of this length, also bounded by the model's positions. */
  public int maxOutputLength(int sourceLength, int modelMaxLength) {
    return (int) Math.min(Math.floor(maxLengthA * sourceLength) + maxLengthB, modelMaxLength);
  }

  /** A setting of the search, as {@link Invalid} names it. */
  public enum Setting {
    BEAM_WIDTH("beamWidth"),
    LENGTH_PENALTY("lengthPenalty's alpha"),
    MAX_LENGTH_A("maxLengthA"),
    /** maxLengthA and maxLengthB together. */
    MAX_LENGTH("maxLengthA and maxLengthB");

    private final String label;

    Setting(String label) {
      this.label = label;
    }
  }

  /** A setting out of its range: {@link #setting} and what it {@link #requirement must be}. */
  public static final class Invalid extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final Setting setting;
    private final String requirement;

    Invalid(Setting setting, String requirement) {
      super(setting.label + " " + requirement);
      this.setting = setting;
      this.requirement = requirement;
    }

    public Setting setting() {
      return setting;
    }

    /** What the setting must be and what it was, e.g. {@code must be at least 1, got 0}. */
    public String requirement() {
      return requirement;
    }
  }
}
