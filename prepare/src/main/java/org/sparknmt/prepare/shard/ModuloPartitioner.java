package org.sparknmt.prepare.shard;

import org.apache.spark.Partitioner;

/** Long keys (already seeded hashes) to {@code floorMod(key, n)}: deals batches out to shards evenly. */
final class ModuloPartitioner extends Partitioner {
  private final int partitions;

  ModuloPartitioner(int partitions) {
    this.partitions = partitions;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object key) {
    return (int) Math.floorMod((Long) key, (long) partitions);
  }
}
