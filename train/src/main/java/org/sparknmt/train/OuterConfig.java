package org.sparknmt.train;

import org.sparknmt.base.UsageException;

/**
 * The outer optimizer of parameter averaging: the {@code train.outer} section. Each round's averaged
 * change of the parameters, G = θ_before − θ_avg, is a pseudo-gradient, applied with momentum as
 * {@code torch.optim.SGD} applies a gradient: v = momentum·v + G, then θ = θ_before − lr·v, or with
 * Nesterov θ = θ_before − lr·(G + momentum·v). This is block momentum (BMUF, Chen and Huo 2016; fairseq's
 * {@code --block-lr} and {@code --block-momentum}) and the outer step of SlowMo and DiLoCo. Rounds that
 * start before global step {@code start_step} are plain averaging and leave v at zero (BMUF's warm-up
 * iterations, fairseq's {@code --warmup-iterations}; post-local SGD's synchronous phase). From there the
 * momentum may grow linearly over {@code ramp_steps} steps, from 0 to {@code momentum}, as the inner
 * learning rate grows in its warm-up, so that the outer gain 1/(1 − momentum) comes in gradually.
 * Its components are the keys {@code train.outer.lr}, {@code train.outer.momentum},
 * {@code train.outer.nesterov}, {@code train.outer.start_step} and {@code train.outer.ramp_steps},
 * described with their defaults in sparknmt-defaults.conf.
 */
public record OuterConfig(double lr, double momentum, boolean nesterov, long startStep, long rampSteps) {

  public OuterConfig {
    if (!(lr > 0) || Double.isInfinite(lr)) {
      throw new UsageException("outer.lr must be a positive number, got " + lr);
    }
    if (!(momentum >= 0 && momentum < 1)) {
      throw new UsageException("outer.momentum must be in [0, 1), got " + momentum);
    }
    if (startStep < 0) {
      throw new UsageException("outer.start_step must be 0 or positive, got " + startStep);
    }
    if (rampSteps < 0) {
      throw new UsageException("outer.ramp_steps must be 0 or positive, got " + rampSteps);
    }
  }

  /** Whether the round that starts at global step {@code roundStart} takes the outer step. */
  public boolean appliesFrom(long roundStart) {
    return roundStart >= startStep;
  }

  /**
   * The momentum of the round that starts at global step {@code roundStart} (one that {@link #appliesFrom}):
   * {@code momentum}·(roundStart − start_step)/ramp_steps while that is below {@code momentum}, else {@code momentum}.
   */
  public double momentumAt(long roundStart) {
    if (rampSteps == 0 || roundStart - startStep >= rampSteps) {
      return momentum;
    }
    return momentum * (roundStart - startStep) / rampSteps;
  }

  /** lr 1 and momentum 0: the round's average is the new model, as DL4J's parameter averaging does alone. */
  public boolean plainAveraging() {
    return lr == 1 && momentum == 0;
  }
}
