package org.sparknmt.base.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.JobSucceeded$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.util.AccumulatorV2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress line of a stage's Spark work, which Spark's own console progress bar (turned off) would
 * otherwise leave silent for minutes: what is done, the rate and the ETA, logged at most every
 * interval, from a Spark listener registered while it is open, e.g.
 * {@code translate: 12,345 of 100,000 lines (12%) | 850 lines/s | ETA 1m46s}.
 *
 * <p>What is done is the tasks' input records read or output records written, counted from finished
 * tasks and from the running tasks' executor heartbeats; or the tasks done when neither fits. The ETA
 * comes from the share of the records done when their total is known, else from the share of the
 * tasks done of those Spark has planned so far (a job that starts later adds its tasks). Only the jobs
 * of the job group set when it opens count (all jobs when none is). Work that ends before the first
 * interval prints nothing; once a line was printed, closing after successful jobs prints a last one
 * with the elapsed time. Nothing it does can fail the job: every error of its own is swallowed.
 */
public final class JobProgress implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobProgress.class);
  /** Seconds between two lines, as {@code train.progress_seconds}' default. */
  public static final double DEFAULT_SECONDS = 5;
  /** How long closing waits for the listener bus to deliver the end of the jobs, for the last line. */
  private static final long CLOSE_WAIT_MILLIS = 2000;

  /** What a line counts. */
  public enum Count {
    /** the tasks' input records read: lines of text inputs, rows of cached partitions */
    INPUT_RECORDS("internal.metrics.input.recordsRead"),
    /** the tasks' output records written: lines of a text output */
    OUTPUT_RECORDS("internal.metrics.output.recordsWritten"),
    /** tasks only */
    TASKS(null);

    private final String accumulator;

    Count(String accumulator) {
      this.accumulator = accumulator;
    }

    long of(TaskMetrics metrics) {
      return switch (this) {
        case INPUT_RECORDS -> metrics.inputMetrics().recordsRead();
        case OUTPUT_RECORDS -> metrics.outputMetrics().recordsWritten();
        case TASKS -> 0;
      };
    }
  }

  /**
   * What a line reports.
   *
   * @param records the records counted; ignored with {@link Count#TASKS}
   * @param total the records expected, or -1 when unknown
   * @param seconds since it opened
   * @param finished whether this is the last line, after the work ended
   */
  record Snapshot(long records, long total, long tasksDone, long tasks, double seconds, boolean finished) {}

  private final SparkContext sc;
  private final String label;
  private final String noun;
  private final Count count;
  private final long total;
  private final Consumer<String> sink;
  private final String group;
  private final long startNanos = System.nanoTime();
  private final Listener listener = new Listener();
  private final ScheduledExecutorService timer;
  private Snapshot last;
  private boolean printed;

  /**
   * Starts counting the jobs that {@code sc} runs from now on.
   *
   * @param label what the line starts with, e.g. {@code translate}
   * @param noun what is counted, plural, e.g. {@code lines}, or {@code lines read} when the total is unknown
   * @param total the records the work counts in all, or -1 when unknown
   * @param seconds the least time between two lines
   */
  public JobProgress(JavaSparkContext sc, String label, String noun, Count count, long total, double seconds) {
    this(sc, label, noun, count, total, seconds, LOG::info);
  }

  /** As the public constructor, each line handed to {@code sink} rather than logged. */
  JobProgress(JavaSparkContext sc, String label, String noun, Count count, long total, double seconds,
      Consumer<String> sink) {
    this.sc = sc.sc();
    this.label = label;
    this.noun = noun;
    this.count = count;
    this.total = count == Count.TASKS ? -1 : total;
    this.sink = sink;
    this.group = sc.getLocalProperty("spark.jobGroup.id");
    this.sc.addSparkListener(listener);
    timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "sparknmt-progress");
      thread.setDaemon(true);
      return thread;
    });
    long period = Math.max(1, Math.round(seconds * 1000));
    timer.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    try {
      Snapshot now = listener.snapshot(seconds(), false);
      synchronized (this) {
        // between jobs (the driver writing a file, say) a line saying what the previous one said is noise
        if (!listener.busy() && last != null && now.records() == last.records() && now.tasksDone() == last.tasksDone()) {
          return;
        }
        last = now;
        printed = true;
      }
      sink.accept(line(label, noun, count, now));
    } catch (Throwable e) {
      LOG.debug("progress line failed", e);
    }
  }

  private double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** Stops counting; after a line was printed and the jobs succeeded, prints the last one. */
  @Override
  public void close() {
    timer.shutdownNow();
    boolean printedOne;
    synchronized (this) {
      printedOne = printed;
    }
    // Spark stops a listener queue that this removal empties with a blocking put of its stop signal, which an
    // interrupt cuts short, leaving the queue stopped without it (as TrainJob found): the removal runs
    // uninterrupted and the interrupt is restored after it
    boolean interrupted = Thread.interrupted();
    try {
      // a tick still printing would otherwise come after the last line
      if (!interrupted && printedOne && timer.awaitTermination(1, TimeUnit.SECONDS)
          && listener.awaitJobs(CLOSE_WAIT_MILLIS)) {
        sink.accept(line(label, noun, count, listener.snapshot(seconds(), true)));
      }
    } catch (Throwable e) {
      LOG.debug("the last progress line failed", e);
    } finally {
      try {
        sc.removeSparkListener(listener);
      } catch (Throwable e) {
        LOG.debug("removing the progress listener failed", e);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The line for {@code s}: {@code LABEL: DONE[ of TOTAL] NOUN (P%) | R NOUN/s | ETA T}, the tasks shown
   * when the total is unknown, and the elapsed time instead of the ETA on the last line.
   */
  static String line(String label, String noun, Count count, Snapshot s) {
    StringBuilder line = new StringBuilder(label).append(": ");
    double fraction;
    if (count != Count.TASKS && s.total() >= 0) {
      fraction = s.total() == 0 ? (s.finished() ? 1 : 0) : Math.min(1, (double) s.records() / s.total());
      line.append(number(s.records())).append(" of ").append(number(s.total())).append(' ').append(noun)
          .append(String.format(Locale.ROOT, " (%.0f%%)", percent(fraction)));
    } else {
      fraction = s.tasks() == 0 ? (s.finished() ? 1 : 0) : (double) s.tasksDone() / s.tasks();
      if (count != Count.TASKS) {
        line.append(number(s.records())).append(' ').append(noun).append(" | ");
      }
      line.append(number(s.tasksDone())).append(" of ").append(number(s.tasks())).append(" tasks")
          .append(String.format(Locale.ROOT, " (%.0f%%)", percent(fraction)));
    }
    if (count != Count.TASKS && s.seconds() > 0) {
      line.append(" | ").append(number(Math.round(s.records() / s.seconds()))).append(' ')
          .append(noun.split(" ")[0]).append("/s");
    }
    if (s.finished()) {
      line.append(" | in ").append(duration(s.seconds()));
    } else {
      double eta = eta(fraction, s.seconds());
      line.append(" | ETA ").append(Double.isNaN(eta) ? "?" : duration(eta));
    }
    return line.toString();
  }

  /** The seconds left when {@code fraction} of the work took {@code seconds}; NaN before anything is done. */
  static double eta(double fraction, double seconds) {
    if (!(fraction > 0)) {
      return Double.NaN;
    }
    return seconds * (1 - Math.min(1, fraction)) / fraction;
  }

  /** Whole seconds as {@code 1m46s}, or {@code 2h05m} from an hour on. */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
        : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }

  /** The percentage shown: 100 only when all is done, so a line never says 100% too early. */
  private static double percent(double fraction) {
    return fraction < 1 ? Math.min(99, 100 * fraction) : 100;
  }

  private static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /**
   * The counts, from the listener bus's thread. A stage's tasks count from its job's start; a stage the
   * job skips (its shuffle output computed before) stops counting once a stage after it is submitted.
   */
  private final class Listener extends SparkListener {
    private final Map<Integer, Integer> tasksOfStage = new HashMap<>();
    private final Map<Integer, Integer> doneOfStage = new HashMap<>();
    private final Set<Integer> submittedStages = new HashSet<>();
    private final Map<Integer, List<Integer>> parentsOfStage = new HashMap<>();
    private final Map<Integer, Long> accumulatorOfStage = new HashMap<>();
    private final Map<Integer, List<Integer>> stagesOfJob = new HashMap<>();
    private final Map<Long, Long> runningRecords = new HashMap<>();
    private long finishedRecords;
    private boolean failed;

    @Override
    public void onJobStart(SparkListenerJobStart start) {
      quietly("job start", () -> {
        String jobGroup = start.properties() == null ? null : start.properties().getProperty("spark.jobGroup.id");
        if (group != null && !group.equals(jobGroup)) {
          return;
        }
        synchronized (this) {
          List<Integer> stages = new ArrayList<>();
          for (StageInfo stage : javaList(start.stageInfos())) {
            if (stage.completionTime().isDefined() && stage.failureReason().isEmpty()) {
              continue;
            }
            stages.add(stage.stageId());
            tasksOfStage.putIfAbsent(stage.stageId(), stage.numTasks());
            List<Integer> parents = new ArrayList<>();
            javaList(stage.parentIds()).forEach(parent -> parents.add((Integer) parent));
            parentsOfStage.put(stage.stageId(), parents);
          }
          stagesOfJob.put(start.jobId(), stages);
        }
      });
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
      quietly("stage submitted", () -> {
        synchronized (this) {
          int stage = submitted.stageInfo().stageId();
          submittedStages.add(stage);
          skipAncestorsOf(stage);
          if (count.accumulator != null && submitted.stageInfo().taskMetrics() != null) {
            // heartbeats leave the metrics' names out: a running task's count is known by its accumulator's id,
            // the one of this stage attempt's task metrics
            for (AccumulatorV2<?, ?> metric : javaList(submitted.stageInfo().taskMetrics().accumulators())) {
              if (metric.name().isDefined() && count.accumulator.equals(metric.name().get())) {
                accumulatorOfStage.put(stage, metric.id());
              }
            }
          }
        }
      });
    }

    /** A stage runs once its parents are done: those never submitted were skipped, and so were theirs. */
    private void skipAncestorsOf(int stage) {
      for (int parent : parentsOfStage.getOrDefault(stage, List.of())) {
        if (!submittedStages.contains(parent) && tasksOfStage.remove(parent) != null) {
          doneOfStage.remove(parent);
          skipAncestorsOf(parent);
        }
      }
    }

    /** Only the tasks known to run take a heartbeat's count: one that ended keeps its final count. */
    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart start) {
      if (tasksOfStage.containsKey(start.stageId())) {
        runningRecords.put(start.taskInfo().taskId(), 0L);
      }
    }

    @Override
    public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
      if (count.accumulator == null) {
        return;
      }
      quietly("heartbeat", () -> {
        for (var task : javaList(update.accumUpdates())) {
          synchronized (this) {
            Long taskId = (Long) task._1();
            Long accumulator = accumulatorOfStage.get((Integer) task._2());
            if (accumulator == null || !runningRecords.containsKey(taskId)) {
              continue;
            }
            for (AccumulableInfo accumulable : javaList(task._4())) {
              if (accumulable.id() == accumulator && accumulable.update().isDefined()
                  && accumulable.update().get() instanceof Long records) {
                runningRecords.put(taskId, records);
              }
            }
          }
        }
      });
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      quietly("task end", () -> {
        synchronized (this) {
          Integer tasks = tasksOfStage.get(end.stageId());
          if (tasks == null) {
            return;
          }
          runningRecords.remove(end.taskInfo().taskId());
          if (end.reason() instanceof Success$) {
            doneOfStage.merge(end.stageId(), 1, (a, b) -> Math.min(tasks, a + b));
            if (end.taskMetrics() != null) {
              finishedRecords += count.of(end.taskMetrics());
            }
          }
        }
      });
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd end) {
      quietly("job end", () -> {
        synchronized (this) {
          List<Integer> stages = stagesOfJob.remove(end.jobId());
          if (stages == null) {
            return;
          }
          if (!(end.jobResult() instanceof JobSucceeded$)) {
            failed = true;
          }
          for (Integer stage : stages) {
            if (!submittedStages.contains(stage)) {
              tasksOfStage.remove(stage);
              doneOfStage.remove(stage);
            }
          }
          notifyAll();
        }
      });
    }

    /** Runs a handler's body: a progress line is never worth a failure on the listener bus. */
    private void quietly(String event, Runnable body) {
      try {
        body.run();
      } catch (Throwable e) {
        LOG.debug("progress: " + event, e);
      }
    }

    synchronized boolean busy() {
      return !stagesOfJob.isEmpty();
    }

    /** Waits up to {@code millis} for the jobs started to end; whether they all did, and succeeded. */
    synchronized boolean awaitJobs(long millis) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      while (!stagesOfJob.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return !failed;
    }

    synchronized Snapshot snapshot(double seconds, boolean finished) {
      long records = finishedRecords;
      for (long running : runningRecords.values()) {
        records += running;
      }
      long tasks = 0;
      for (int n : tasksOfStage.values()) {
        tasks += n;
      }
      long done = 0;
      for (int n : doneOfStage.values()) {
        done += n;
      }
      return new Snapshot(records, total, done, tasks, seconds, finished);
    }
  }

  /** A Scala collection's elements, without the converters that differ between Scala 2.12 and 2.13. */
  private static <T> List<T> javaList(scala.collection.Iterable<T> items) {
    List<T> list = new ArrayList<>();
    scala.collection.Iterator<T> it = items.iterator();
    while (it.hasNext()) {
      list.add(it.next());
    }
    return list;
  }
}
