package org.sparknmt.job.train;

import org.sparknmt.datasets.UsageException;

/**
 * The outer optimizer of parameter averaging: the {@code train.outer} section. Each round's averaged
 * change of the parameters, G = θ_before − θ_avg, is a pseudo-gradient, applied with momentum as
 * {@code torch.optim.SGD} applies a gradient: v = momentum·v + G, then θ = θ_before − lr·v, or with
 * Nesterov θ = θ_before − lr·(G + momentum·v). This is block momentum (BMUF, Chen and Huo 2016; fairseq's
 * {@code --block-lr} and {@code --block-momentum}) and the outer step of SlowMo and DiLoCo.
 * Its components are the keys {@code train.outer.lr}, {@code train.outer.momentum} and
 * {@code train.outer.nesterov}, described with their defaults in sparknmt-defaults.conf.
 */
public record OuterConfig(double lr, double momentum, boolean nesterov) {

  public OuterConfig {
    if (!(lr > 0) || Double.isInfinite(lr)) {
      throw new UsageException("outer.lr must be a positive number, got " + lr);
    }
    if (!(momentum >= 0 && momentum < 1)) {
      throw new UsageException("outer.momentum must be in [0, 1), got " + momentum);
    }
  }

  /** lr 1 and momentum 0: the round's average is the new model, as DL4J's parameter averaging does alone. */
  public boolean plainAveraging() {
    return lr == 1 && momentum == 0;
  }
}
