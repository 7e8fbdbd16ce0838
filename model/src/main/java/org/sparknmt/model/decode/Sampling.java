package org.sparknmt.model.decode;

/**
 * Sampling instead of search (fairseq's {@code --sampling}): each step draws the next token from the
 * model's distribution at a temperature, restricted to the k most probable tokens (top-k) or to the
 * fewest most probable whose probabilities sum to at least p (top-p, nucleus sampling; Holtzman et al.
 * 2020). The score of a sample is the model's own summed log-probability of its tokens (temperature 1,
 * unrestricted), as greedy search scores its output.
 *
 * @param topK the k of top-k, or 0 for top-p
 * @param topP the p of top-p in (0, 1], or 0 for top-k
 * @param temperature the logits are divided by it before the draw (&gt; 0; below 1 sharpens, above 1 flattens)
 */
public record Sampling(int topK, double topP, double temperature) {
  public Sampling {
    if ((topK > 0) == (topP > 0) || topK < 0 || !(topP >= 0 && topP <= 1)) {
      throw new IllegalArgumentException("sampling takes either top-k with k >= 1 or top-p with p in (0, 1], got k="
          + topK + " p=" + topP);
    }
    if (!(temperature > 0) || Double.isInfinite(temperature)) {
      throw new IllegalArgumentException("the sampling temperature must be positive and finite, got " + temperature);
    }
  }

  public static Sampling topK(int k, double temperature) {
    return new Sampling(k, 0, temperature);
  }

  public static Sampling topP(double p, double temperature) {
    return new Sampling(0, p, temperature);
  }

  /**
   * The seed of one sentence's random stream, from the run's seed, the sentence's line number and its
   * piece of the line (a line longer than the model's positions is translated in pieces): a line's sample
   * then depends on neither its partition nor the other lines of its batch.
   */
  public static long sentenceSeed(long seed, long line, int piece) {
    return mix(mix(seed + GOLDEN_GAMMA * (line + 1)) + GOLDEN_GAMMA * (piece + 1));
  }

  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  /** SplittableRandom's (and MurmurHash3's) 64-bit finalizer: nearby inputs give unrelated outputs. */
  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
