package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The transitions of a run's state: each names what it changes and keeps the rest. */
class TrainingStateTest {
  private static final TrainingState START = TrainingState.initial(7, "sha", "conf");

  @Test
  void aRoundMovesTheCursorAndTheStepAndAddsItsTime() {
    TrainingState first = START.afterRound(5, 3, step -> step / 10_000.0, 2.5, 1.5);
    assertEquals(new TrainingState(5, 0, 1, 3, 5e-4, 7, "sha", "conf", Map.of("train_loss", 2.5),
        Double.POSITIVE_INFINITY, 0, 1.5, null), first);
    TrainingState third = first.afterRound(5, 3, step -> 0.1, 2.0, 1.0).afterRound(4, 3, step -> 0.2, 1.0, 0.5);
    assertEquals(14, third.step());
    assertEquals(1, third.epoch(), "the last round of 3 ends the epoch");
    assertEquals(0, third.round());
    assertEquals(0.2, third.learningRate());
    assertEquals(3.0, third.trainSeconds());
    assertEquals(Map.of("train_loss", 1.0), third.metrics());
  }

  @Test
  void aValidationKeepsTheBestLossAndCountsTheOnesWithoutImprovement() {
    TrainingState once = START.afterRound(5, 3, step -> 0.1, 2.5, 1.0).validated(2.0, Map.of("valid_loss", 2.0));
    assertEquals(2.0, once.bestValidLoss());
    assertEquals(0, once.validationsSinceBest());
    assertEquals(Map.of("train_loss", 2.5, "valid_loss", 2.0), once.metrics());
    TrainingState worse = once.validated(2.1, Map.of("valid_loss", 2.1)).validated(2.0, Map.of("valid_loss", 2.0));
    assertEquals(2.0, worse.bestValidLoss(), "an equal loss is no improvement");
    assertEquals(2, worse.validationsSinceBest());
    assertEquals(0, worse.validated(1.9, Map.of()).validationsSinceBest());
  }

  @Test
  void aContinuingRunSetsItsCursorAndConfigurationOnly() {
    DataCursor cursor = new DataCursor(2, 5, 40);
    TrainingState continued = START.afterRound(5, 3, step -> 0.1, 2.5, 1.0).continuedBy(cursor, 7, "other");
    assertEquals(new TrainingState(5, 0, 1, 3, 0.1, 7, "sha", "other", Map.of("train_loss", 2.5),
        Double.POSITIVE_INFINITY, 0, 1.0, cursor), continued);
    assertEquals(Map.of("averaged_checkpoints", 3.0), continued.withMetrics(Map.of("averaged_checkpoints", 3.0)).metrics());
  }

  @Test
  void anotherSeedIsRefusedInTheMiddleOfAnEpochOnly() {
    DataCursor cursor = new DataCursor(2, 5, 40);
    TrainingState midEpoch = START.afterRound(5, 3, step -> 0.1, 2.5, 1.0).continuedBy(cursor, 7, "conf");
    assertEquals("the checkpoint stopped in round 1 of an epoch whose batch order is drawn from train.seed = 7, but this "
        + "run has train.seed = 8: the rest of the epoch would repeat or skip batches; resume with train.seed = 7 (it "
        + "may change at an epoch's end)", midEpoch.refusal(cursor, 8));
    assertEquals(null, midEpoch.refusal(cursor, 7));
    TrainingState epochEnd = midEpoch.afterRound(5, 3, step -> 0.1, 2.5, 1.0).afterRound(5, 3, step -> 0.1, 2.5, 1.0);
    assertEquals(null, epochEnd.refusal(cursor, 8));
    assertEquals(8, epochEnd.continuedBy(cursor, 8, "conf").seed(), "the next epoch is ordered by the new seed");
  }
}
