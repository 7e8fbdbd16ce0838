package org.sparknmt.train;

import org.nd4j.linalg.schedule.ISchedule;
import org.nd4j.shade.jackson.annotation.JsonCreator;
import org.nd4j.shade.jackson.annotation.JsonProperty;

/**
 * Puts an {@link LrSchedule} inside the network's Adam, driven by DL4J's iteration count. The
 * trainer sets that count to the global step before every averaging round, so each worker's
 * updates follow the global schedule step by step, and Adam's bias correction uses the same count.
 */
public final class LrScheduleAdapter implements ISchedule {
  @JsonProperty private final LrSchedule.Kind kind;
  @JsonProperty private final int dModel;
  @JsonProperty private final int warmupSteps;
  @JsonProperty private final double lr;
  private transient LrSchedule schedule;

  @JsonCreator
  public LrScheduleAdapter(@JsonProperty("kind") LrSchedule.Kind kind, @JsonProperty("dModel") int dModel,
      @JsonProperty("warmupSteps") int warmupSteps, @JsonProperty("lr") double lr) {
    this.kind = kind;
    this.dModel = dModel;
    this.warmupSteps = warmupSteps;
    this.lr = lr;
  }

  public static LrScheduleAdapter of(TrainConfig config, int dModel) {
    return new LrScheduleAdapter(config.lrSchedule(), dModel, config.warmupSteps(), config.lr());
  }

  /** DL4J counts iterations from 0 before the first update; the paper's step counts from 1. */
  @Override
  public double valueAt(int iteration, int epoch) {
    return schedule().rate(iteration + 1L);
  }

  private LrSchedule schedule() {
    if (schedule == null) {
      schedule = LrSchedule.of(kind, dModel, warmupSteps, lr);
    }
    return schedule;
  }

  @Override
  public ISchedule clone() {
    return new LrScheduleAdapter(kind, dModel, warmupSteps, lr);
  }
}
