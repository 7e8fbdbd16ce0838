package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.config.JobConfig;

/** The progress line's ETA. */
class ProgressTest {
  private static final long STEPS_PER_EPOCH = 100;

  @Test
  void withoutATimeBudgetTheEtaIsTheStepsLeftAtThisRunsPace() {
    TrainingState state = trained(50, 40);
    // 50 steps in 50 s of wall time; 20 epochs of 100 steps: 1,950 steps left
    assertEquals(1950, Progress.remainingSeconds(train("train.max_epochs=20"), STEPS_PER_EPOCH, state, 0, 0, 50), 1e-9);
    assertEquals(50, Progress.remainingSeconds(train("train.max_steps=100"), STEPS_PER_EPOCH, state, 0, 0, 50), 1e-9);
  }

  @Test
  void aTimeBudgetEndsTheEtaAtMaxMinutesOfTraining() {
    // 40 s of training in 50 s of wall time; 2 minutes of training allowed: 80 s of training left, 100 s of wall
    TrainingState state = trained(50, 40);
    assertEquals(100, Progress.remainingSeconds(train("train.max_epochs=20", "train.max_minutes=2"), STEPS_PER_EPOCH,
        state, 0, 0, 50), 1e-9);
    // the steps end first
    assertEquals(50, Progress.remainingSeconds(train("train.max_steps=100", "train.max_minutes=60"), STEPS_PER_EPOCH,
        state, 0, 0, 50), 1e-9);
  }

  @Test
  void aResumedRunCountsTheBudgetOverAllRunsAndItsOwnPace() {
    // resumed at step 1,000 after 600 s of training; this run: 50 steps, 40 s of training in 50 s of wall time
    TrainingState state = trained(1050, 640);
    assertEquals(0, Progress.remainingSeconds(train("train.max_epochs=20", "train.max_minutes=10"), STEPS_PER_EPOCH,
        state, 1000, 600, 50), 1e-9);
    // 13 minutes: 140 s of training left, at 50 s of wall time per 40 s of training
    assertEquals(175, Progress.remainingSeconds(train("train.max_epochs=20", "train.max_minutes=13"), STEPS_PER_EPOCH,
        state, 1000, 600, 50), 1e-9);
  }

  private static TrainingState trained(long steps, double trainSeconds) {
    return TrainingState.initial(1, "sha", "{}").afterRound(Math.toIntExact(steps), 1000, step -> 1e-3, 1.0,
        trainSeconds);
  }

  private static TrainConfig train(String... keys) {
    return JobConfig.load(null, List.of(keys)).bind("train", TrainConfig.class);
  }
}
