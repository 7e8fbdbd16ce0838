package org.sparknmt.job.checkpoint;

import java.util.Map;

/**
 * {@code state.json} of a checkpoint: everything besides the weights that a resumed run needs to
 * continue exactly, and what a person needs to know what the checkpoint is.
 *
 * @param step global steps (optimizer updates of the averaged model) taken
 * @param epoch the epoch in progress (0-based)
 * @param round the next averaging round of that epoch: the data cursor
 * @param roundsInEpoch rounds the epoch has, for progress
 * @param learningRate the rate of the last update
 * @param seed the run's base seed, from which the data order and dropout derive
 * @param vocabularySha256 the vocabulary the model was trained with
 * @param config the effective configuration (HOCON)
 * @param metrics the latest measurements: train_loss, valid_loss, valid_accuracy, valid_bleu ...
 * @param bestValidLoss the best validation loss so far, and {@code validationsSinceBest} for early stopping
 * @param trainSeconds seconds of training rounds so far, over all runs (validation and checkpoints not counted)
 * @param cursor what {@code epoch} and {@code round} mean (null in checkpoints written before it was saved)
 */
public record TrainingState(
    long step,
    int epoch,
    int round,
    int roundsInEpoch,
    double learningRate,
    long seed,
    String vocabularySha256,
    String config,
    Map<String, Double> metrics,
    double bestValidLoss,
    int validationsSinceBest,
    double trainSeconds,
    DataCursor cursor) {

  public TrainingState {
    metrics = Map.copyOf(metrics);
  }

  /** The same state with {@code cursor} replaced. */
  public TrainingState withCursor(DataCursor replacement) {
    return new TrainingState(step, epoch, round, roundsInEpoch, learningRate, seed, vocabularySha256, config, metrics,
        bestValidLoss, validationsSinceBest, trainSeconds, replacement);
  }
}
