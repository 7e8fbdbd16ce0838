package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LrScheduleTest {
  @Test
  void noamMatchesEquationThreeByHand() {
    LrSchedule noam = new LrSchedule.Noam(512, 4000, 1.0);
    // d^-0.5 * step * warmup^-1.5 during warm-up; d^-0.5 * step^-0.5 after
    assertEquals(Math.pow(512, -0.5) * 100 * Math.pow(4000, -1.5), noam.rate(100), 1e-15);
    assertEquals(Math.pow(512, -0.5) * Math.pow(16000, -0.5), noam.rate(16000), 1e-15);
    assertEquals(0.000698771242968684, noam.rate(4000), 1e-15);
  }

  @Test
  void noamPeaksAtWarmup() {
    LrSchedule noam = new LrSchedule.Noam(256, 400, 2.0);
    assertTrue(noam.rate(399) < noam.rate(400));
    assertTrue(noam.rate(401) < noam.rate(400));
  }

  @Test
  void inverseSqrtRisesLinearlyToThePeakThenDecays() {
    LrSchedule schedule = new LrSchedule.InverseSqrt(1e-3, 400);
    assertEquals(1e-3 / 400, schedule.rate(1), 1e-18);
    assertEquals(0.5e-3, schedule.rate(200), 1e-18);
    assertEquals(1e-3, schedule.rate(400), 1e-18);
    assertEquals(0.5e-3, schedule.rate(1600), 1e-18);
  }

  @Test
  void stepZeroIsTreatedAsTheFirstStep() {
    assertEquals(new LrSchedule.Noam(64, 10, 1).rate(1), new LrSchedule.Noam(64, 10, 1).rate(0));
  }

  @Test
  void adapterDrivesTheScheduleByDl4jIteration() {
    LrScheduleAdapter adapter = new LrScheduleAdapter(LrSchedule.Kind.INVERSE_SQRT, 64, 400, 1e-3);
    assertEquals(new LrSchedule.InverseSqrt(1e-3, 400).rate(1), adapter.valueAt(0, 0));
    assertEquals(new LrSchedule.InverseSqrt(1e-3, 400).rate(1000), adapter.valueAt(999, 3));
  }

  @Test
  void invalidSettingsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.Noam(0, 10, 1));
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.InverseSqrt(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> new LrSchedule.Constant(0));
  }

  @Test
  void crossedFindsMultiplesInsideARound() {
    assertTrue(TrainingLoop.crossed(10, 5, 10));
    assertTrue(TrainingLoop.crossed(12, 5, 10));
    assertTrue(!TrainingLoop.crossed(9, 5, 10));
    assertTrue(!TrainingLoop.crossed(12, 5, 0));
  }
}
