package org.sparknmt.cli;

import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.bytedeco.javacpp.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.CheckpointWritePause;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.base.run.RunLock;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.train.MemoryPlan;
import org.sparknmt.train.SliceReducers;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.train.TrainJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sparknmt train}: trains on {@code RUN/data}, checkpoints to {@code RUN/checkpoints}, resumes by rerunning. */
@Command(name = "train", mixinStandardHelpOptions = true,
    description = {"Train the Transformer on the shards of a prepared run with DL4J parameter averaging on Spark.",
        "Checkpoints go to RUN/checkpoints (any Hadoop URI); rerunning the same command resumes from the newest intact one.",
        "Metrics: RUN/metrics/train.jsonl and valid.jsonl."})
public final class TrainCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(TrainCommand.class);

  @Mixin SparkOptions spark;
  @Mixin ConfigOptions configOptions;
  @Mixin RunLockOption runLock;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory prepared by `sparknmt prepare` (file://, hdfs://, ...).")
  String run;

  @Option(names = "--resume", description = "Require a checkpoint to resume from (a plain rerun resumes too, but also starts fresh when there is none).")
  boolean resume;

  @Option(names = "--restart", description = "Start from step 0 when RUN/checkpoints holds checkpoints but none is intact "
      + "(without it such a run is refused: a fresh start overwrites them and drops their metrics).")
  boolean restart;

  @Override
  public Integer call() throws Exception {
    if (resume && restart) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--resume and --restart exclude each other");
    }
    JobConfig config = configOptions.load();
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    TrainConfig train = config.bind("train", TrainConfig.class);
    CheckpointWritePause checkpointPause = CheckpointWritePause.fromEnvironment(System.getenv());
    LOG.info("effective configuration:\n{}", config.render());
    PrepareConfig data = config.bind("data", PrepareConfig.class);
    MemoryPlan memory =
        MemoryPlan.of(model, data.vocabSize(), data.maxTokens(), train.microBatches(), data.maxSubwords() + 1);
    LOG.info("memory for one training task per executor (sparknmt memory): {}", memory.sparkSubmitArgs());
    SparkConf sparkConf = spark.sparkConf("sparknmt train " + run);
    // the driver gathers one averaged state a round, which passes Spark's 1g default from about 89 M parameters
    int planWorkers = train.workerCount(Runtime.getRuntime().availableProcessors());
    sparkConf.setIfMissing("spark.driver.maxResultSize", memory.driverMaxResultSizeMib(
        SliceReducers.count(memory.parameters(), memory.stateBytes(), planWorkers, planWorkers)) + "m");
    try (RunLock lock = runLock.acquire(run, "train", sparkConf); JavaSparkContext sc = new JavaSparkContext(sparkConf)) {
      warnIfLocalCapTooSmall(sc, memory, train);
      warnIfHeapTooSmall(sc, memory, train);
      if (!lock.broken()) {
        // no other writer can be alive: what killed writers left half-written goes
        new CheckpointStore(run, sc.hadoopConfiguration()).removeLeftovers();
      }
      TrainJob.Start start = resume ? TrainJob.Start.RESUME : restart ? TrainJob.Start.RESTART : TrainJob.Start.RESUME_OR_FRESH;
      TrainJob.Result result = new TrainJob(sc, run, model, train, config.render(), checkpointPause).run(start);
      System.out.printf("train: stopped at step %d (%s); train loss %.4f%s%n", result.step(), result.stopReason(),
          result.trainLoss(), result.lastValidation() == null ? ""
              : String.format(", valid loss %.4f, valid accuracy %.2f%%", result.lastValidation().loss(),
                  100 * result.lastValidation().accuracy()));
    }
    return 0;
  }

  /** The driver's heap holds copies of the round's state, and in local mode the reducers too (MemoryPlan). */
  private static void warnIfHeapTooSmall(JavaSparkContext sc, MemoryPlan memory, TrainConfig train) {
    int workers = train.workerCount(sc.defaultParallelism());
    int executors = sc.isLocal() ? 1 : workers;
    long needMib = memory.driverHeapMib(SliceReducers.count(memory.parameters(), memory.stateBytes(), workers, executors),
        workers, sc.isLocal() ? workers : 0);
    long heapMib = Runtime.getRuntime().maxMemory() >> 20;
    if (heapMib < needMib) {
      LOG.warn("the driver's heap (SPARKNMT_DRIVER_MEMORY, --driver-memory) is {} MiB; averaging rounds of this configuration"
          + " need about {} MiB: raise it to {}m or leave SPARKNMT_DRIVER_MEMORY unset (sparknmt memory --conf ...)",
          heapMib, needMib, needMib);
    }
  }

  /** In local mode the training tasks share this JVM: JavaCPP's process cap must hold all of them. */
  private static void warnIfLocalCapTooSmall(JavaSparkContext sc, MemoryPlan memory, TrainConfig train) {
    long capMib = Pointer.maxPhysicalBytes() >> 20;
    int tasks = train.workerCount(sc.defaultParallelism());
    long heapMib = Runtime.getRuntime().maxMemory() >> 20;
    long needMib = memory.localProcessMib(heapMib, tasks);
    if (sc.isLocal() && capMib > 0 && capMib < needMib) {
      LOG.warn("the process cap (SPARKNMT_PROCESS_CAP, org.bytedeco.javacpp.maxphysicalbytes) is {} MiB; {} training "
          + "tasks of this configuration need about {} MiB: raise it to {}m or leave it unset (sparknmt memory --conf ...)",
          capMib, tasks, needMib, needMib);
    }
  }
}
