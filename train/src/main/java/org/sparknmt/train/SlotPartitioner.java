package org.sparknmt.train;

import org.apache.spark.Partitioner;

/** Sends slot s of a round to worker s / k: worker w fits slots w·k … w·k + k − 1. */
final class SlotPartitioner extends Partitioner {
  private final int workers;
  private final int averagingFrequency;

  SlotPartitioner(int workers, int averagingFrequency) {
    this.workers = workers;
    this.averagingFrequency = averagingFrequency;
  }

  @Override
  public int numPartitions() {
    return workers;
  }

  @Override
  public int getPartition(Object slot) {
    return (Integer) slot / averagingFrequency;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SlotPartitioner p && p.workers == workers && p.averagingFrequency == averagingFrequency;
  }

  @Override
  public int hashCode() {
    return 31 * workers + averagingFrequency;
  }
}
