package org.sparknmt.base.run;

import java.util.Locale;

/**
 * The names of what a run measures, in one place: the keys of a checkpoint's metrics
 * ({@code state.json}) and the fields of {@code RUN/metrics/train.jsonl} and {@code valid.jsonl}.
 * Files spell them in snake_case ({@link #key}); changing one changes the files' format.
 */
public enum RunMetric {
  // a checkpoint's metrics (TrainingState.metrics)
  /** The last averaging round's training loss. */
  TRAIN_LOSS,
  /** The last validation's loss per target token; the best checkpoint's tie-breaker. */
  VALID_LOSS,
  /** The last validation's token accuracy. */
  VALID_ACCURACY,
  /** The last validation's greedy BLEU on the first valid sentences; picks the best checkpoint. */
  VALID_BLEU,
  /** An averaged checkpoint: how many checkpoints it averages. */
  AVERAGED_CHECKPOINTS,
  /** An averaged checkpoint: the step of the oldest one it averages. */
  FIRST_STEP,

  // the fields of the metrics logs, one record per averaging round (train) or validation (valid)
  /** The global step; every record has it, first. */
  STEP,
  EPOCH,
  LOSS,
  /** train.jsonl: the learning rate. */
  LR,
  /** train.jsonl: target tokens per second of the round's own time (validations and checkpoints not counted). */
  TOKENS_PER_S,
  /** train.jsonl: the share of the round spent fitting. */
  FIT_SHARE,
  /** train.jsonl: the share of the round spent reading data. */
  DATA_SHARE,
  /**
   * train.jsonl: the bytes the driver received as the round's task results (Spark's TaskMetrics.resultSize
   * summed over the round's tasks): one averaged state, whatever the number of workers.
   */
  DRIVER_BYTES_IN,
  /** Seconds of training so far, over all runs. */
  TRAIN_S,
  /** valid.jsonl: token accuracy. */
  ACCURACY,
  /** Target tokens: trained on in the round (train.jsonl), validated (valid.jsonl). */
  TOKENS,
  /** valid.jsonl: greedy BLEU, when measured. */
  BLEU,
  /** valid.jsonl: the seconds the validation took (loss and BLEU), which train_s does not count. */
  VALID_S;

  /** The name as files write it: {@code VALID_LOSS -> valid_loss}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
