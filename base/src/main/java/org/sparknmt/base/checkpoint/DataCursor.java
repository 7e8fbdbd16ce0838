package org.sparknmt.base.checkpoint;

/**
 * What the data position of a checkpoint ({@code epoch}, {@code round}) means: an epoch's rounds are
 * cut from its batch order by these three numbers, so a resumed run is only exact with the same ones.
 *
 * @param workers parameter-averaging workers (resolved, never 0)
 * @param averagingFrequency batches each worker fits per round (k)
 * @param batchesPerEpoch training batches of {@code RUN/data}
 */
public record DataCursor(int workers, int averagingFrequency, int batchesPerEpoch) {

  /**
   * Why a run whose state is at {@code round} of an epoch cannot continue with {@code next}, or null.
   * At an epoch's start (round 0) workers and k may change: the next epoch is planned afresh from the
   * same batch order, so no batch is repeated or skipped. Other data is never the same run.
   */
  public String refusal(DataCursor next, int round) {
    if (batchesPerEpoch != next.batchesPerEpoch) {
      return "the checkpoint was trained on " + batchesPerEpoch + " batches per epoch, RUN/data now has "
          + next.batchesPerEpoch;
    }
    if (round > 0 && (workers != next.workers || averagingFrequency != next.averagingFrequency)) {
      return String.format("the checkpoint stopped in round %d of an epoch planned for train.workers = %d and "
          + "train.averaging_frequency = %d, but this run has %d and %d: the rest of the epoch would repeat or skip "
          + "batches; resume with the same two settings (they may change at an epoch's end)",
          round, workers, averagingFrequency, next.workers, next.averagingFrequency);
    }
    return null;
  }
}
