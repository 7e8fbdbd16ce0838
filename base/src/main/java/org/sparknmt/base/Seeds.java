package org.sparknmt.base;

/**
 * Deterministic randomness from one seed: SplitMix64's finalizer, a bijection on longs, so distinct
 * inputs give distinct keys and an order by key is a total, reproducible shuffle.
 */
public final class Seeds {
  private Seeds() {}

  /** A well-mixed 64-bit key for {@code value} under {@code seed}; a bijection in {@code value}. */
  public static long mix(long seed, long value) {
    long z = value + seed * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A uniform double in [0, 1) for {@code value} under {@code seed}. */
  public static double uniform(long seed, long value) {
    return (mix(seed, value) >>> 11) * 0x1.0p-53;
  }
}
