package org.sparknmt.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.train.TrainJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * What an averaging round costs the driver as the workers grow: W executors of one core on
 * {@code local-cluster[W,1,MB]}, one worker each, averaging every batch (k = 1). One row: the bytes the
 * driver received per round (the train job's own {@code driver_bytes_in}), the driver's peak heap
 * during training (the sum of the heap pools' peaks, reset after a full GC once the context is up:
 * garbage included, so it depends on when G1 collects) and the largest heap left after any of its
 * collections during training (what it held), the shuffle
 * bytes each executor wrote and read per round, and the round jobs' time outside their tasks (job wall
 * time less each stage's longest task: scheduling, task launch and result handling). The first round
 * (JIT, first broadcast) is left out of the per-round figures.
 *
 * <p>Run through the launcher: {@code SPARKNMT_MAIN_CLASS=org.sparknmt.bench.ReductionScalingBench
 * SPARKNMT_EXTRA_CLASSPATH=BENCH_JAR scripts/sparknmt PREPARED_RUN ROUNDS --workers W [--conf F] [--set k=v ...]},
 * as {@code scripts/bench-train-scaling} does for W = 1, 2, 4, 8.
 */
@Command(name = "ReductionScalingBench", mixinStandardHelpOptions = true,
    description = "Print one row of driver bytes, driver heap, shuffle bytes and scheduling time per round at W executors.")
public final class ReductionScalingBench implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PREPARED_RUN", description = "A run prepared by sparknmt prepare.")
  String prepared;

  @Parameters(index = "1", paramLabel = "ROUNDS", description = "Averaging rounds (k = 1: steps).")
  long rounds;

  @Option(names = "--workers", required = true, paramLabel = "W", description = "Executors, one worker each.")
  int workers;

  @Option(names = "--executor-mb", defaultValue = "1024", paramLabel = "MB", description = "Each executor's memory (default ${DEFAULT-VALUE}).")
  int executorMb;

  @Option(names = "--master", paramLabel = "MASTER", description = "Ignored: the master is local-cluster[W,1,MB].")
  String ignoredMaster;

  @Option(names = "--conf", paramLabel = "FILE", description = "HOCON config file, as sparknmt train takes it.")
  java.nio.file.Path file;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one config key. Repeatable.")
  List<String> overrides = new ArrayList<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new ReductionScalingBench()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    overrides.addAll(List.of("train.valid_bleu_sentences=0", "train.max_steps=" + rounds, "train.workers=" + workers,
        "train.averaging_frequency=1", "train.checkpoint_every_steps=0"));
    JobConfig config = JobConfig.load(file, overrides);
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    SparkConf spark = new SparkConf().setAppName("sparknmt reduction scaling bench")
        .setMaster("local-cluster[" + workers + ",1," + executorMb + "]")
        .set("spark.executor.memory", executorMb + "m")
        .set("spark.executorEnv.OMP_NUM_THREADS", "1");
    String run = prepared + "-reduction-w" + workers;
    try (JavaSparkContext sc = new JavaSparkContext(spark)) {
      TrainScalingBench.copyData(sc, prepared, run);
      RoundJobs jobs = new RoundJobs();
      sc.sc().addSparkListener(jobs);
      System.gc();
      ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
      HeapAfterGc afterGc = HeapAfterGc.listening();
      new TrainJob(sc, run, model, config.bind("train", TrainConfig.class), config.render())
          .run(TrainJob.Start.RESUME_OR_FRESH);
      long peakHeap = ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(pool -> pool.getType() == MemoryType.HEAP).mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
      long peakLive = afterGc.peak();
      List<JsonNode> rounds = TrainScalingBench.rounds(sc, run);
      List<JsonNode> measured = rounds.subList(Math.min(1, rounds.size() - 1), rounds.size());
      double driverBytes = measured.stream().mapToLong(round -> round.get("driver_bytes_in").asLong()).average().orElse(0);
      synchronized (jobs) {
        int n = jobs.roundJobs - 1;
        // the columns scripts/bench-train-scaling heads: workers executors rounds driver-MB heap-MiB after-GC-MiB write-MB read-MB sched-s
        System.out.printf("%7d %6d %6d %14.2f %14.1f %13.1f %19.2f %20.2f %12.3f%n", workers,
            sc.sc().statusTracker().getExecutorInfos().length - 1, measured.size(), driverBytes / 1e6,
            peakHeap / 1048576.0, peakLive / 1048576.0,
            jobs.maxPerExecutor(jobs.shuffleWritten) / 1e6 / n, jobs.maxPerExecutor(jobs.shuffleRead) / 1e6 / n,
            jobs.outsideTasksMillis() / 1e3 / n);
      }
    }
    return 0;
  }

  /** The largest heap in use right after a garbage collection, over the collections since {@link #listening}. */
  private static final class HeapAfterGc implements NotificationListener {
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private long peak;

    static HeapAfterGc listening() {
      HeapAfterGc listener = new HeapAfterGc();
      for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((NotificationEmitter) collector).addNotificationListener(listener, null, null);
      }
      return listener;
    }

    @Override
    public synchronized void handleNotification(Notification notification, Object handback) {
      if (notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
        Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
            .getGcInfo().getMemoryUsageAfterGc();
        peak = Math.max(peak, after.entrySet().stream().filter(pool -> heapPools.contains(pool.getKey()))
            .mapToLong(pool -> pool.getValue().getUsed()).sum());
      }
    }

    synchronized long peak() {
      return peak;
    }
  }

  /**
   * The averaging rounds' jobs (job group {@code train}) after the first: shuffle bytes by executor, and
   * each job's wall time less the sum of its stages' longest tasks.
   */
  private static final class RoundJobs extends SparkListener {
    final Map<String, Long> shuffleWritten = new HashMap<>();
    final Map<String, Long> shuffleRead = new HashMap<>();
    private final Map<Integer, Long> longestTask = new HashMap<>();
    private final Map<Integer, Long> jobStart = new HashMap<>();
    int roundJobs;
    long outsideTasksMillis;

    @Override
    public synchronized void onJobStart(SparkListenerJobStart start) {
      if (isRound(start.properties()) && ++roundJobs > 1) {
        jobStart.put(start.jobId(), start.time());
      }
    }

    @Override
    public synchronized void onStageSubmitted(SparkListenerStageSubmitted submitted) {
      if (isRound(submitted.properties()) && roundJobs > 1) {
        longestTask.put(submitted.stageInfo().stageId(), 0L);
      }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
      if (!longestTask.containsKey(end.stageId()) || end.taskMetrics() == null) {
        return;
      }
      String executor = end.taskInfo().executorId();
      shuffleWritten.merge(executor, end.taskMetrics().shuffleWriteMetrics().bytesWritten(), Long::sum);
      shuffleRead.merge(executor, end.taskMetrics().shuffleReadMetrics().totalBytesRead(), Long::sum);
      longestTask.merge(end.stageId(), end.taskInfo().duration(), Math::max);
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd end) {
      Long started = jobStart.remove(end.jobId());
      if (started != null) {
        outsideTasksMillis += end.time() - started;
      }
    }

    /** Wall time of the measured round jobs less each of their stages' longest task. */
    long outsideTasksMillis() {
      return outsideTasksMillis - longestTask.values().stream().mapToLong(Long::longValue).sum();
    }

    private static boolean isRound(Properties properties) {
      return properties != null && "train".equals(properties.getProperty("spark.jobGroup.id"));
    }

    long maxPerExecutor(Map<String, Long> bytes) {
      return bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
  }
}
