package org.sparknmt.model.decode;

/**
 * How to search.
 *
 * @param beamWidth hypotheses kept per sentence (1 with {@link Translator#greedy} semantics is greedy search)
 * @param lengthPenalty normalization of finished hypotheses' scores
 * @param maxLengthA output length limit a·|source| + b (fairseq's max_len_a, max_len_b), EOS included
 * @param maxLengthB see maxLengthA
 */
public record DecodingOptions(int beamWidth, LengthPenalty lengthPenalty, double maxLengthA, int maxLengthB) {
  public DecodingOptions {
    if (beamWidth < 1) {
      throw new IllegalArgumentException("beam_width must be at least 1, got " + beamWidth);
    }
    if (maxLengthA < 0 || maxLengthB < 0 || (maxLengthA == 0 && maxLengthB == 0)) {
      throw new IllegalArgumentException("max length a·|source| + b must be positive, got a=" + maxLengthA
          + " b=" + maxLengthB);
    }
  }

  /**
   * Greedy search with at most 1.5·|source| + 10 tokens: the fixed search of validation BLEU and of
   * the attention maps (translation takes its search from the {@code translate} config section).
   */
  public static DecodingOptions greedy() {
    return new DecodingOptions(1, new LengthPenalty.Power(0), 1.5, 10);
  }

  /** The longest output (EOS included) for a source of this length, also bounded by the model's positions. */
  public int maxOutputLength(int sourceLength, int modelMaxLength) {
    return (int) Math.min(Math.floor(maxLengthA * sourceLength) + maxLengthB, modelMaxLength);
  }
}
