package org.sparknmt.job.train;

import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The outer step of {@link OuterConfig} on the driver, once per averaging round. Its state is the
 * momentum buffer v, saved with each checkpoint so that a resumed run continues exactly.
 */
final class BlockMomentum {
  private final OuterConfig config;
  /** v after the last round; null before the first. */
  private INDArray velocity;

  BlockMomentum(OuterConfig config, INDArray restoredVelocity) {
    this.config = config;
    this.velocity = restoredVelocity;
  }

  /**
   * Replaces the averaged parameters {@code params} (θ_avg, in place) by the outer step from
   * {@code before} (θ_before, the parameters the round started from; overwritten). θ_before − lr·u is
   * computed as θ_avg + (1 − lr)·G − lr·momentum·v (u = G + momentum·v, v the old buffer, or the new
   * one with Nesterov), so that lr 1 and momentum 0 leave θ_avg exactly as it is.
   */
  void step(INDArray before, INDArray params) {
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      INDArray g = before.subi(params);
      if (velocity == null) {
        velocity = Nd4j.zerosLike(params);
      }
      if (!config.nesterov()) {
        moveFromAverage(params, g);
      }
      velocity.muli(config.momentum()).addi(g);
      if (config.nesterov()) {
        moveFromAverage(params, g);
      }
    }
  }

  private void moveFromAverage(INDArray params, INDArray g) {
    params.addi(g.mul(1 - config.lr())).subi(velocity.mul(config.lr() * config.momentum()));
  }

  /** v, or null before the first round. */
  INDArray velocity() {
    return velocity;
  }
}
