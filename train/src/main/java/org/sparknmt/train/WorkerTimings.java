package org.sparknmt.train;

import java.io.Serializable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * What the workers report back besides parameters: time spent in {@code fit}, time spent turning
 * batches into arrays, and the non-padding target tokens trained on. Spark accumulators, so the
 * driver can split a round's wall time into fitting and everything else (averaging, scheduling).
 */
public final class WorkerTimings implements Serializable {
  private final LongAccumulator fitNanos;
  private final LongAccumulator dataNanos;
  private final LongAccumulator targetTokens;
  private final LongAccumulator batches;

  public WorkerTimings(JavaSparkContext sc) {
    this.fitNanos = sc.sc().longAccumulator("sparknmt fit ns");
    this.dataNanos = sc.sc().longAccumulator("sparknmt data ns");
    this.targetTokens = sc.sc().longAccumulator("sparknmt target tokens");
    this.batches = sc.sc().longAccumulator("sparknmt batches");
  }

  void addFit(long nanos) {
    fitNanos.add(nanos);
  }

  void addData(long nanos) {
    dataNanos.add(nanos);
  }

  void addBatch(long tokens) {
    targetTokens.add(tokens);
    batches.add(1);
  }

  /** Totals so far, summed over workers. */
  public Snapshot snapshot() {
    return new Snapshot(fitNanos.value(), dataNanos.value(), targetTokens.value(), batches.value());
  }

  /** Accumulated totals at one moment; differences of two snapshots describe the time between. */
  public record Snapshot(long fitNanos, long dataNanos, long targetTokens, long batches) {
    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(fitNanos - earlier.fitNanos, dataNanos - earlier.dataNanos,
          targetTokens - earlier.targetTokens, batches - earlier.batches);
    }
  }
}
