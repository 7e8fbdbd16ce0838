package org.sparknmt.train;

import org.apache.spark.Partitioner;

/**
 * How a round's results are reduced through Spark's shuffle: each worker's parameters (and Adam state,
 * when it travels) are cut into S slices by element range, and slice j of every worker goes to
 * reducer j, under the key j·W + w, so that the shuffle's sort hands reducer j worker 0's slice first,
 * then worker 1's, and so on.
 *
 * <p>S is at least W, so that a reducer receives no more than one worker's whole state in all (W
 * slices of 1/S of it); at least the executors, so that every executor reduces; and at least the
 * state's bytes over {@link #MAX_SLICE_BYTES}, so that no slice comes near a Java array's 2 GB. S does
 * not change the result: each element's sum is the same whichever slice holds it.
 */
public final class SliceReducers extends Partitioner {
  /**
   * 64 MiB: a reducer's heap holds W of them and a few copies of its result (MemoryPlan); at 256 MiB a
   * base model's two local reducers and the driver's copies of the state did not fit a 2g heap.
   */
  static final long MAX_SLICE_BYTES = 64L << 20;

  private final int slices;
  private final int workers;

  SliceReducers(int slices, int workers) {
    if (slices <= 0 || workers <= 0) {
      throw new IllegalArgumentException("slices and workers must be positive, got " + slices + " and " + workers);
    }
    this.slices = slices;
    this.workers = workers;
  }

  /**
   * S for a state of {@code parameters} floats ({@code stateBytes} bytes with the updater state that
   * travels) reduced from {@code workers} workers on {@code executors} executors: the largest of W, the
   * executors and stateBytes / {@link #MAX_SLICE_BYTES}, at most one slice per parameter.
   */
  static SliceReducers of(long parameters, long stateBytes, int workers, int executors) {
    return new SliceReducers(count(parameters, stateBytes, workers, executors), workers);
  }

  /** S, as {@link #of} chooses it. */
  public static int count(long parameters, long stateBytes, int workers, int executors) {
    long bySize = (stateBytes + MAX_SLICE_BYTES - 1) / MAX_SLICE_BYTES;
    return Math.toIntExact(Math.max(1, Math.min(parameters, Math.max(Math.max(workers, executors), bySize))));
  }

  int slices() {
    return slices;
  }

  /** The shuffle key of worker {@code worker}'s part of slice {@code slice}. */
  long key(int slice, int worker) {
    return (long) slice * workers + worker;
  }

  /** The first element of slice {@code slice} of a vector of {@code length}: slices differ by at most one element. */
  long start(long length, int slice) {
    return length * slice / slices;
  }

  @Override
  public int numPartitions() {
    return slices;
  }

  @Override
  public int getPartition(Object key) {
    return (int) ((Long) key / workers);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SliceReducers r && r.slices == slices && r.workers == workers;
  }

  @Override
  public int hashCode() {
    return 31 * slices + workers;
  }
}
