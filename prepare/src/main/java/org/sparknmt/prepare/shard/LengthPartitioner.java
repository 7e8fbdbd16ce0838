package org.sparknmt.prepare.shard;

import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import org.apache.spark.Partitioner;

/**
 * Range-partitions {@link SortKey}s by length with bounds cut from the exact length histogram, so
 * partitions hold about equal numbers of pairs and the bounds depend only on the data (Spark's
 * sampling RangePartitioner seeds its sample with the RDD id, which differs from run to run).
 */
final class LengthPartitioner extends Partitioner {
  /** Partition {@code p} holds lengths {@code <= upper[p]}; the last is unbounded. */
  private final int[] upper;

  private LengthPartitioner(int[] upper) {
    this.upper = upper;
  }

  static LengthPartitioner balanced(SortedMap<Integer, Long> histogram, int partitions) {
    long total = histogram.values().stream().mapToLong(Long::longValue).sum();
    int[] upper = new int[partitions];
    int p = 0;
    long seen = 0;
    for (Map.Entry<Integer, Long> entry : histogram.entrySet()) {
      seen += entry.getValue();
      while (p < partitions - 1 && seen >= (p + 1) * (double) total / partitions) {
        upper[p++] = entry.getKey();
      }
    }
    Arrays.fill(upper, p, partitions, Integer.MAX_VALUE);
    return new LengthPartitioner(upper);
  }

  @Override
  public int numPartitions() {
    return upper.length;
  }

  @Override
  public int getPartition(Object key) {
    int length = ((SortKey) key).length();
    for (int p = 0; p < upper.length; p++) {
      if (length <= upper[p]) {
        return p;
      }
    }
    return upper.length - 1;
  }
}
