package org.sparknmt.prepare;

import org.sparknmt.base.UsageException;

/**
 * The {@code data} section: how {@code sparknmt prepare} filters, learns the vocabulary, and packs
 * batches. Each component is the key {@code data.<component in snake_case>}, described with its
 * default once, in sparknmt-defaults.conf ({@code sparknmt config --explain} lists them). Validated
 * once here; messages name the key.
 */
public record PrepareConfig(
    int vocabSize,
    double characterCoverage,
    int vocabMaxWords,
    int maxWords,
    int maxChars,
    double maxLengthRatio,
    int maxSubwords,
    int maxTokens,
    int maxSentences,
    int shards,
    int partitions,
    double validFraction,
    long seed) implements java.io.Serializable {

  /** The smallest vocabulary: 4 reserved ids, 256 bytes, the word marker and a few symbols. */
  public static final int MIN_VOCAB_SIZE = 300;

  public PrepareConfig {
    if (vocabSize < MIN_VOCAB_SIZE) {
      throw new UsageException("vocab_size must be at least " + MIN_VOCAB_SIZE + ", was " + vocabSize);
    }
    if (!(characterCoverage > 0 && characterCoverage <= 1)) {
      throw new UsageException("character_coverage must be in (0, 1], was " + characterCoverage);
    }
    requirePositive("vocab_max_words", vocabMaxWords);
    requirePositive("max_words", maxWords);
    requirePositive("max_chars", maxChars);
    if (!(maxLengthRatio >= 1)) {
      throw new UsageException("max_length_ratio must be at least 1, was " + maxLengthRatio);
    }
    requirePositive("max_subwords", maxSubwords);
    if (maxTokens < maxSubwords + 1) {
      throw new UsageException("max_tokens (" + maxTokens + ") must hold one pair of max_subwords + 1 ("
          + (maxSubwords + 1) + ") tokens");
    }
    if (maxSentences < 0) {
      throw new UsageException("max_sentences must be 0 (no limit) or positive, was " + maxSentences);
    }
    requirePositive("shards", shards);
    requirePositive("partitions", partitions);
    if (!(validFraction >= 0 && validFraction < 1)) {
      throw new UsageException("valid_fraction must be in [0, 1), was " + validFraction);
    }
  }

  /** The same configuration with another valid fraction (the {@code --valid-fraction} option). */
  public PrepareConfig withValidFraction(double fraction) {
    return new PrepareConfig(vocabSize, characterCoverage, vocabMaxWords, maxWords, maxChars, maxLengthRatio, maxSubwords,
        maxTokens, maxSentences, shards, partitions, fraction, seed);
  }

  private static void requirePositive(String key, int value) {
    if (value <= 0) {
      throw new UsageException(key + " must be positive, was " + value);
    }
  }
}
