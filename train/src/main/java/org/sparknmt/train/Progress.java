package org.sparknmt.train;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.checkpoint.TrainingState;

/**
 * The line a person watches: step, epoch progress, loss, learning rate, target tokens/s, the share
 * of the task slots' wall time the workers spent fitting (the rest is averaging, broadcast and
 * scheduling), ETA.
 */
final class Progress {
  private static final Logger LOG = LoggerFactory.getLogger(Progress.class);

  private final TrainConfig config;
  private final int batches;
  private final int workers;
  /** How many workers fit at once: W, or the task slots when there are fewer (W > slots fit in waves). */
  private final int parallelWorkers;
  private final WorkerTimings timings;
  private final long startStep;
  private final double startTrainSeconds;
  private final long startNanos = System.nanoTime();
  private long lastLineNanos = System.nanoTime();
  private WorkerTimings.Snapshot roundStart;

  /** @param slots the tasks the cluster runs at once (Spark's default parallelism) */
  Progress(TrainConfig config, int batches, int workers, int slots, TrainingState start, WorkerTimings timings) {
    this.config = config;
    this.batches = batches;
    this.workers = workers;
    this.parallelWorkers = Math.max(1, Math.min(workers, slots));
    this.timings = timings;
    this.startStep = start.step();
    this.startTrainSeconds = start.trainSeconds();
    this.roundStart = timings.snapshot();
  }

  /**
   * @param wall the round's own seconds: not the time since the last round, which after an epoch also
   *     holds the validation and the checkpoint
   * @param driverBytesIn the bytes the driver received as the round's task results; -1 when unknown
   */
  void afterRound(TrainingState state, double loss, double wall, long driverBytesIn, MetricsSink metrics) {
    long now = System.nanoTime();
    WorkerTimings.Snapshot total = timings.snapshot();
    WorkerTimings.Snapshot round = total.minus(roundStart);
    // the workers fit in parallel, as many at once as there are slots: their summed time over that
    // number is the fitting part of the wall time
    double fitShare = Math.min(1, round.fitNanos() / 1e9 / parallelWorkers / wall);
    double dataShare = Math.min(1, round.dataNanos() / 1e9 / parallelWorkers / wall);
    double tokensPerSecond = round.targetTokens() / wall;
    metrics.round(state, loss, round.targetTokens(), tokensPerSecond, fitShare, dataShare, driverBytesIn);
    roundStart = total;
    if ((now - lastLineNanos) / 1e9 >= config.progressSeconds()) {
      lastLineNanos = now;
      LOG.info(String.format("step %d | epoch %d %3.0f%% | loss %.4f | lr %.2e | %.0f tok/s | fit %.0f%% | ETA %s",
          state.step(), state.epoch() + (state.round() == 0 ? 0 : 1),
          state.round() == 0 ? 100.0 : 100.0 * state.round() / state.roundsInEpoch(),
          loss, state.learningRate(), tokensPerSecond, 100 * fitShare, eta(state, now)));
    }
  }

  private String eta(TrainingState state, long now) {
    if (state.step() <= startStep) {
      return "?";
    }
    long stepsPerEpoch = RoundPlan.stepsPerEpoch(batches, workers, config.averagingFrequency());
    long s = Math.round(remainingSeconds(config, stepsPerEpoch, state, startStep, startTrainSeconds,
        (now - startNanos) / 1e9));
    return s >= 3600 ? String.format("%dh%02dm", s / 3600, s / 60 % 60) : String.format("%dm%02ds", s / 60, s % 60);
  }

  /**
   * Wall seconds left at this run's pace: to max_steps or max_epochs, whichever comes first, and never
   * past max_minutes, whose budget counts training rounds only (so the budget left is stretched by this
   * run's ratio of wall time to training time, which holds validations and checkpoints).
   *
   * @param wall wall seconds since this run started, at {@code state}
   */
  static double remainingSeconds(TrainConfig config, long stepsPerEpoch, TrainingState state, long startStep,
      double startTrainSeconds, double wall) {
    long target = config.maxEpochs() * stepsPerEpoch;
    if (config.maxSteps() > 0) {
      target = Math.min(config.maxSteps(), target);
    }
    double left = wall / (state.step() - startStep) * Math.max(0, target - state.step());
    double trained = state.trainSeconds() - startTrainSeconds;
    if (config.maxMinutes() > 0 && trained > 0) {
      left = Math.min(left, Math.max(0, config.maxMinutes() * 60 - state.trainSeconds()) * wall / trained);
    }
    return left;
  }
}
