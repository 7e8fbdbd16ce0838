package org.sparknmt.train;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.checkpoint.CheckpointStore;

/**
 * The outer step of {@link OuterConfig} on the driver, once per averaging round. Its state is the
 * momentum buffer v, saved with each checkpoint so that a resumed run continues exactly.
 */
final class BlockMomentum {
  private static final Logger LOG = LoggerFactory.getLogger(BlockMomentum.class);

  private final OuterConfig config;
  /** v after the last round; null before the first. */
  private INDArray velocity;

  BlockMomentum(OuterConfig config, INDArray restoredVelocity) {
    this.config = config;
    this.velocity = restoredVelocity;
  }

  /**
   * The outer step of a run resuming from {@code checkpoint} (empty: a fresh run), with the momentum
   * saved there; a zero momentum when the checkpoint has none, i.e. it was written with plain averaging.
   */
  static BlockMomentum resumed(OuterConfig config, CheckpointStore store,
      Optional<CheckpointStore.Checkpoint> checkpoint) throws IOException {
    return new BlockMomentum(config, checkpoint.isPresent() ? savedVelocity(store, checkpoint.get()) : null);
  }

  private static INDArray savedVelocity(CheckpointStore store, CheckpointStore.Checkpoint checkpoint)
      throws IOException {
    Optional<InputStream> saved = store.openOuter(checkpoint);
    if (saved.isEmpty()) {
      LOG.info("{} has no outer optimizer state: the outer momentum starts at zero", checkpoint.path());
      return null;
    }
    try (DataInputStream in = new DataInputStream(saved.get())) {
      return Nd4j.read(in);
    }
  }

  /** Writes v into a checkpoint ({@link CheckpointStore#OUTER}); null before the first round, when there is none. */
  CheckpointStore.ModelWriter stateWriter() {
    return velocity == null ? null : out -> {
      DataOutputStream data = new DataOutputStream(out);
      Nd4j.write(velocity, data);
      data.flush();
    };
  }

  /** Whether the round that starts at global step {@code roundStart} takes the outer step; before, it is plain averaging. */
  boolean appliesFrom(long roundStart) {
    return config.appliesFrom(roundStart);
  }

  /**
   * Replaces the averaged parameters {@code params} (θ_avg, in place) by the outer step from
   * {@code before} (θ_before, the parameters the round started from; overwritten), with the momentum of
   * the round that started at global step {@code roundStart} ({@link OuterConfig#momentumAt}). Only for a
   * round that {@link #appliesFrom(long)}. θ_before − lr·u is computed as θ_avg + (1 − lr)·G − lr·m·v
   * (u = G + m·v, v the old buffer, or the new one with Nesterov), so that lr 1 and momentum 0 leave
   * θ_avg exactly as it is.
   */
  void step(long roundStart, INDArray before, INDArray params) {
    double momentum = config.momentumAt(roundStart);
    try (MemoryWorkspace outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      INDArray g = before.subi(params);
      if (velocity == null) {
        velocity = Nd4j.zerosLike(params);
      }
      if (!config.nesterov()) {
        moveFromAverage(params, g, momentum);
      }
      velocity.muli(momentum).addi(g);
      if (config.nesterov()) {
        moveFromAverage(params, g, momentum);
      }
    }
  }

  private void moveFromAverage(INDArray params, INDArray g, double momentum) {
    params.addi(g.mul(1 - config.lr())).subi(velocity.mul(config.lr() * momentum));
  }
}
