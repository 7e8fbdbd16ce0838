package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.base.config.JobConfig;

/** The outer step against a hand computation, plain averaging as the identity, and its settings' checks. */
class BlockMomentumTest {

  /**
   * Two rounds of θ_before -> θ_avg from {1, 2}, starting at global steps 10 and 20; returns the parameters after
   * each outer step.
   */
  private static double[][] twoRounds(OuterConfig config, double[] firstAverage, double[] secondAverage) {
    BlockMomentum outer = new BlockMomentum(config, null);
    INDArray params = Nd4j.createFromArray(firstAverage);
    outer.step(10, Nd4j.createFromArray(1.0, 2.0), params);
    double[] afterFirst = params.toDoubleVector();
    INDArray before = params.dup();
    params.assign(Nd4j.createFromArray(secondAverage));
    outer.step(20, before, params);
    return new double[][] {afterFirst, params.toDoubleVector()};
  }

  @Test
  void classicalMomentumByHand() {
    // G1 = (0.5, -0.5), v1 = G1, θ1 = (1, 2) - 0.7·v1 = (0.65, 2.35)
    // G2 = θ1 - (0.45, 2.45) = (0.2, -0.1), v2 = 0.9·v1 + G2 = (0.65, -0.55), θ2 = θ1 - 0.7·v2 = (0.195, 2.735)
    double[][] result = twoRounds(new OuterConfig(0.7, 0.9, false, 0, 0), new double[] {0.5, 2.5}, new double[] {0.45, 2.45});
    assertArrayEquals(new double[] {0.65, 2.35}, result[0], 1e-12);
    assertArrayEquals(new double[] {0.195, 2.735}, result[1], 1e-12);
  }

  @Test
  void nesterovMomentumByHand() {
    // v1 = G1 = (0.5, -0.5), θ1 = (1, 2) - 0.7·(G1 + 0.9·v1) = (0.335, 2.665)
    // G2 = θ1 - (0.3, 2.7) = (0.035, -0.035), v2 = 0.9·v1 + G2 = (0.485, -0.485),
    // θ2 = θ1 - 0.7·(G2 + 0.9·v2) = (0.00495, 2.99505)
    double[][] result = twoRounds(new OuterConfig(0.7, 0.9, true, 0, 0), new double[] {0.5, 2.5}, new double[] {0.3, 2.7});
    assertArrayEquals(new double[] {0.335, 2.665}, result[0], 1e-12);
    assertArrayEquals(new double[] {0.00495, 2.99505}, result[1], 1e-12);
  }

  @Test
  void rampedNesterovMomentumByHand() {
    // start 0, ramp 20: the round from step 10 has m = 0.9·10/20 = 0.45, the one from step 20 m = 0.9
    // v1 = G1 = (0.5, -0.5), θ1 = (1, 2) - 0.7·(G1 + 0.45·v1) = (0.4925, 2.5075)
    // G2 = θ1 - (0.3, 2.7) = (0.1925, -0.1925), v2 = 0.9·v1 + G2 = (0.6425, -0.6425),
    // θ2 = θ1 - 0.7·(G2 + 0.9·v2) = (-0.047025, 3.047025)
    double[][] result = twoRounds(new OuterConfig(0.7, 0.9, true, 0, 20), new double[] {0.5, 2.5}, new double[] {0.3, 2.7});
    assertArrayEquals(new double[] {0.4925, 2.5075}, result[0], 1e-12);
    assertArrayEquals(new double[] {-0.047025, 3.047025}, result[1], 1e-12);
  }

  @Test
  void theMomentumRampsLinearlyFromTheStartStep() {
    OuterConfig config = JobConfig.load(null, List.of("train.outer.momentum=0.5", "train.outer.start_step=100",
        "train.outer.ramp_steps=200")).bind("train", TrainConfig.class).outer();
    assertEquals(200, config.rampSteps());
    assertEquals(0.0, config.momentumAt(100));
    assertEquals(0.125, config.momentumAt(150), 1e-15);
    assertEquals(0.25, config.momentumAt(200), 1e-15);
    assertEquals(0.5, config.momentumAt(300));
    assertEquals(0.5, config.momentumAt(1000));
    assertEquals(0.5, new OuterConfig(1, 0.5, true, 100, 0).momentumAt(100), "no ramp: the whole momentum at once");
  }

  @Test
  void negativeRampStepsIsAUsageErrorNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.outer.ramp_steps=-1")).bind("train", TrainConfig.class));
    assertTrue(e.getMessage().contains("outer.ramp_steps"), e.getMessage());
  }

  @Test
  void blockLearningRateAloneScalesTheAveragedChange() {
    // no momentum: θ = θ_before - 1.5·G, G = (0.5, -0.5)
    double[][] result = twoRounds(new OuterConfig(1.5, 0, false, 0, 0), new double[] {0.5, 2.5}, new double[] {0.5, 2.5});
    assertArrayEquals(new double[] {0.25, 2.75}, result[0], 1e-12);
  }

  @Test
  void lrOneAndMomentumZeroLeaveTheAverageBitForBit() {
    for (boolean nesterov : new boolean[] {false, true}) {
      OuterConfig plain = new OuterConfig(1, 0, nesterov, 0, 0);
      assertTrue(plain.plainAveraging());
      BlockMomentum outer = new BlockMomentum(plain, null);
      for (int round = 0; round < 3; round++) {
        INDArray average = Nd4j.rand(DataType.FLOAT, 1, 1000).subi(0.5).muli(1e3);
        INDArray params = average.dup();
        outer.step(10L * round, Nd4j.rand(DataType.FLOAT, 1, 1000), params);
        assertArrayEquals(average.toFloatVector(), params.toFloatVector(), 0f, "nesterov " + nesterov);
      }
    }
  }

  @Test
  void theOuterStepAppliesToRoundsStartingAtOrAfterItsStartStep() {
    OuterConfig config = JobConfig.load(null, List.of("train.outer.momentum=0.5", "train.outer.start_step=400"))
        .bind("train", TrainConfig.class).outer();
    assertEquals(400, config.startStep());
    assertFalse(config.appliesFrom(0));
    assertFalse(config.appliesFrom(399));
    assertTrue(config.appliesFrom(400));
    assertTrue(config.appliesFrom(410));
  }

  @Test
  void negativeStartStepIsAUsageErrorNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.outer.start_step=-1")).bind("train", TrainConfig.class));
    assertTrue(e.getMessage().contains("outer.start_step"), e.getMessage());
  }

  @Test
  void momentumOfOneOrMoreIsAUsageErrorNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.outer.momentum=1.0")).bind("train", TrainConfig.class));
    assertTrue(e.getMessage().contains("outer.momentum"), e.getMessage());
  }

  @Test
  void negativeBlockLearningRateIsAUsageErrorNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.outer.lr=-0.5")).bind("train", TrainConfig.class));
    assertTrue(e.getMessage().contains("outer.lr"), e.getMessage());
  }

  @Test
  void unknownOuterKeyIsAUsageErrorNamingIt() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.outer.moment=0.5")));
    assertTrue(e.getMessage().contains("train.outer.moment"), e.getMessage());
    assertTrue(e.getMessage().contains("momentum"), "known keys not listed: " + e.getMessage());
  }

  @Test
  void negativeTimeBudgetIsAUsageErrorNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("train.max_minutes=-1")).bind("train", TrainConfig.class));
    assertTrue(e.getMessage().contains("max_minutes"), e.getMessage());
  }
}
