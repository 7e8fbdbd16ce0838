package org.sparknmt.base.checkpoint;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongToDoubleFunction;
import org.sparknmt.base.run.RunMetric;

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
 * @param metrics the latest measurements by {@link RunMetric#key}: train_loss, valid_loss, valid_accuracy ...
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

  /** The measurement {@code name}, or null where this state has none. */
  public Double metric(RunMetric name) {
    return metrics.get(name.key());
  }

  /** The state of a run that has not trained yet: step 0, no metrics, no validation, no data cursor. */
  public static TrainingState initial(long seed, String vocabularySha256, String config) {
    return new TrainingState(0, 0, 0, 0, 0, seed, vocabularySha256, config, Map.of(), Double.POSITIVE_INFINITY, 0, 0,
        null);
  }

  /**
   * Why a run that cuts epochs as {@code runCursor} says, with the base seed {@code runSeed}, cannot
   * continue this state, or null. The seed draws each epoch's batch order: in the middle of an epoch
   * another seed would train the rest of it from another order, so batches would be trained twice or
   * never; at an epoch's start it may change, like the cursor's workers and k.
   */
  public String refusal(DataCursor runCursor, long runSeed) {
    if (round > 0 && seed != runSeed) {
      return String.format("the checkpoint stopped in round %d of an epoch whose batch order is drawn from "
          + "train.seed = %d, but this run has train.seed = %d: the rest of the epoch would repeat or skip batches; "
          + "resume with train.seed = %d (it may change at an epoch's end)", round, seed, runSeed, seed);
    }
    return cursor == null ? null : cursor.refusal(runCursor, round);
  }

  /**
   * The state as a run with the configuration {@code runConfig} and base seed {@code runSeed} continues it,
   * cutting epochs as {@code runCursor} says.
   */
  public TrainingState continuedBy(DataCursor runCursor, long runSeed, String runConfig) {
    return new TrainingState(step, epoch, round, roundsInEpoch, learningRate, runSeed, vocabularySha256, runConfig,
        metrics, bestValidLoss, validationsSinceBest, trainSeconds, runCursor);
  }

  /**
   * The state after an averaging round of {@code steps} updates, which took {@code seconds} of training and
   * ended with the training loss {@code trainLoss}: the data cursor moves to the next round, or to the next
   * epoch's first after the last of {@code rounds}; the learning rate is the schedule's at the new step.
   */
  public TrainingState afterRound(int steps, int rounds, LongToDoubleFunction schedule, double trainLoss,
      double seconds) {
    long next = step + steps;
    boolean epochEnds = round + 1 == rounds;
    Map<String, Double> measured = new LinkedHashMap<>(metrics);
    measured.put(RunMetric.TRAIN_LOSS.key(), trainLoss);
    return new TrainingState(next, epochEnds ? epoch + 1 : epoch, epochEnds ? 0 : round + 1, rounds,
        schedule.applyAsDouble(next), seed, vocabularySha256, config, measured, bestValidLoss, validationsSinceBest,
        trainSeconds + seconds, cursor);
  }

  /**
   * The state after a validation with loss {@code loss}: {@code measurements} join the metrics; a loss below
   * the best so far becomes the best, any other counts one more validation without improvement.
   */
  public TrainingState validated(double loss, Map<String, Double> measurements) {
    Map<String, Double> measured = new LinkedHashMap<>(metrics);
    measured.putAll(measurements);
    boolean better = loss < bestValidLoss;
    return new TrainingState(step, epoch, round, roundsInEpoch, learningRate, seed, vocabularySha256, config, measured,
        better ? loss : bestValidLoss, better ? 0 : validationsSinceBest + 1, trainSeconds, cursor);
  }

  /** The same state with {@code replacement} as its metrics (an averaged checkpoint's). */
  public TrainingState withMetrics(Map<String, Double> replacement) {
    return new TrainingState(step, epoch, round, roundsInEpoch, learningRate, seed, vocabularySha256, config,
        replacement, bestValidLoss, validationsSinceBest, trainSeconds, cursor);
  }
}
