package org.sparknmt.train;

import org.sparknmt.base.UsageException;

/**
 * How {@code sparknmt train} trains: the {@code train} section of the configuration. Each component is
 * the key {@code train.<component in snake_case>}, described with its default once, in
 * sparknmt-defaults.conf ({@code sparknmt config --explain} lists them); {@code outer} is the
 * {@code train.outer} section ({@link OuterConfig}).
 */
public record TrainConfig(
    long seed,
    int workers,
    int averagingFrequency,
    boolean averageUpdaterState,
    int microBatches,
    String storageLevel,
    int cachePartitionBatches,
    int maxEpochs,
    long maxSteps,
    double maxMinutes,
    LrSchedule.Kind lrSchedule,
    double lr,
    int warmupSteps,
    double clipNorm,
    long checkpointEverySteps,
    int keepLast,
    long validateEverySteps,
    int patience,
    int validBleuSentences,
    double progressSeconds,
    double checkpointRetrySeconds,
    OuterConfig outer) {

  public TrainConfig {
    nonNegative("workers", workers);
    positive("averaging_frequency", averagingFrequency);
    positive("micro_batches", microBatches);
    positive("cache_partition_batches", cachePartitionBatches);
    positive("max_epochs", maxEpochs);
    nonNegative("max_steps", maxSteps);
    positive("warmup_steps", warmupSteps);
    nonNegative("checkpoint_every_steps", checkpointEverySteps);
    positive("keep_last", keepLast);
    nonNegative("validate_every_steps", validateEverySteps);
    nonNegative("patience", patience);
    nonNegative("valid_bleu_sentences", validBleuSentences);
    if (!(maxMinutes >= 0)) {
      throw new UsageException("max_minutes must be 0 (no limit) or positive, got " + maxMinutes);
    }
    if (!(lr > 0 && Double.isFinite(lr))) {
      throw new UsageException("lr must be a finite number above 0, got " + lr);
    }
    if (!(clipNorm >= 0 && Double.isFinite(clipNorm))) {
      // NaN would fail every comparison with the gradient's norm, so clipping would silently be off
      throw new UsageException("clip_norm must be a finite number, 0 (off) or positive, got " + clipNorm);
    }
    if (!(checkpointRetrySeconds >= 0)) {
      throw new UsageException("checkpoint_retry_seconds must be 0 (no retries) or positive, got "
          + checkpointRetrySeconds);
    }
    if (!(progressSeconds > 0)) {
      throw new UsageException("progress_seconds must be positive, got " + progressSeconds);
    }
    try {
      org.apache.spark.storage.StorageLevel.fromString(storageLevel);
    } catch (IllegalArgumentException e) {
      throw new UsageException("storage_level '" + storageLevel
          + "' is not a Spark storage level (MEMORY_ONLY, MEMORY_ONLY_SER, MEMORY_AND_DISK_SER, DISK_ONLY ...)");
    }
  }

  /** The averaging workers of a round: {@code workers}, or Spark's default parallelism when it is 0. */
  public int workerCount(int defaultParallelism) {
    return workers > 0 ? workers : defaultParallelism;
  }

  private static void positive(String key, long value) {
    if (value <= 0) {
      throw new UsageException(key + " must be positive, got " + value);
    }
  }

  private static void nonNegative(String key, long value) {
    if (value < 0) {
      throw new UsageException(key + " must be 0 or positive, got " + value);
    }
  }
}
