package org.sparknmt.train;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * The bytes the driver received as task results in an averaging round's jobs: Spark's own count,
 * {@code TaskMetrics.resultSize} (the serialized result the driver took in, fetched from the block
 * manager or sent directly), summed over every task of the jobs started with {@link #PROPERTY} set.
 * Listener events arrive asynchronously, after the job's result: {@link #await} waits for the jobs'
 * end events, which Spark posts after their tasks' end events.
 */
final class DriverBytesIn extends SparkListener {
  /** The job property that marks a job as an averaging round's. */
  static final String PROPERTY = "sparknmt.averaging.round";

  private final Map<Integer, Integer> jobOfStage = new HashMap<>();
  private final Map<Integer, Long> bytesOfJob = new HashMap<>();
  private final Map<Integer, Long> endedJobs = new HashMap<>();

  /** A listener counting from now on {@code sc}'s listener bus. */
  static DriverBytesIn register(SparkContext sc) {
    DriverBytesIn listener = new DriverBytesIn();
    sc.addSparkListener(listener);
    return listener;
  }

  @Override
  public synchronized void onJobStart(SparkListenerJobStart start) {
    if (start.properties() == null || start.properties().getProperty(PROPERTY) == null) {
      return;
    }
    bytesOfJob.put(start.jobId(), 0L);
    scala.collection.Iterator<Object> stages = start.stageIds().iterator();
    while (stages.hasNext()) {
      jobOfStage.put((Integer) stages.next(), start.jobId());
    }
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    Integer job = jobOfStage.get(end.stageId());
    if (job != null && bytesOfJob.containsKey(job) && end.taskMetrics() != null) {
      bytesOfJob.merge(job, end.taskMetrics().resultSize(), Long::sum);
    }
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd end) {
    Long bytes = bytesOfJob.remove(end.jobId());
    if (bytes != null) {
      jobOfStage.values().removeIf(job -> job == end.jobId());
      endedJobs.put(end.jobId(), bytes);
      notifyAll();
    }
  }

  /**
   * The bytes received in {@code jobs} (ended, on the driver), once the listener has seen them end;
   * -1 when it has not within {@code timeoutSeconds} (a listener bus that dropped events).
   */
  synchronized long await(List<Integer> jobs, long timeoutSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (!endedJobs.keySet().containsAll(jobs)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        jobs.forEach(endedJobs::remove);
        return -1;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return jobs.stream().mapToLong(endedJobs::remove).sum();
  }
}
