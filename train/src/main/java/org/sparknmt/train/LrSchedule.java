package org.sparknmt.train;

import org.sparknmt.base.UsageException;

/**
 * The learning rate as a function of the global step (1-based): the number of optimizer updates
 * the averaged model has taken, so a restart or a change of worker count keeps the curve.
 */
public sealed interface LrSchedule permits LrSchedule.Noam, LrSchedule.InverseSqrt, LrSchedule.Constant {
  double rate(long step);

  /**
   * Eq. 3 of the paper: lrate = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5).
   * Rises linearly for {@code warmup} steps, then decays with the inverse square root of the step.
   */
  record Noam(int dModel, int warmupSteps, double factor) implements LrSchedule {
    public Noam {
      if (dModel <= 0 || warmupSteps <= 0 || factor <= 0) {
        throw new UsageException("noam needs positive d_model, warmup_steps and lr (the factor)");
      }
    }

    @Override
    public double rate(long step) {
      long s = Math.max(step, 1);
      return factor * Math.pow(dModel, -0.5) * Math.min(Math.pow(s, -0.5), s * Math.pow(warmupSteps, -1.5));
    }
  }

  /**
   * fairseq's {@code inverse_sqrt}: linear warm-up to {@code peak} over {@code warmup} steps, then
   * peak · sqrt(warmup / step). The same shape as Noam with the peak named directly.
   */
  record InverseSqrt(double peak, int warmupSteps) implements LrSchedule {
    public InverseSqrt {
      if (peak <= 0 || warmupSteps <= 0) {
        throw new UsageException("inverse-sqrt needs a positive lr (the peak) and warmup_steps");
      }
    }

    @Override
    public double rate(long step) {
      long s = Math.max(step, 1);
      return s < warmupSteps ? peak * s / warmupSteps : peak * Math.sqrt((double) warmupSteps / s);
    }
  }

  /** A fixed rate, for tests and fine-tuning. */
  record Constant(double value) implements LrSchedule {
    public Constant {
      if (value <= 0) {
        throw new UsageException("constant needs a positive lr");
      }
    }

    @Override
    public double rate(long step) {
      return value;
    }
  }

  /** The schedule of {@code kind} with its factor, peak or value {@code lr}. */
  static LrSchedule of(Kind kind, int dModel, int warmupSteps, double lr) {
    return switch (kind) {
      case NOAM -> new Noam(dModel, warmupSteps, lr);
      case INVERSE_SQRT -> new InverseSqrt(lr, warmupSteps);
      case CONSTANT -> new Constant(lr);
    };
  }

  /** The names accepted by {@code train.lr_schedule}. */
  enum Kind { NOAM, INVERSE_SQRT, CONSTANT }
}
