package org.sparknmt.job.cli;

import java.util.concurrent.Callable;
import org.sparknmt.datasets.PrepareConfig;
import org.sparknmt.job.config.JobConfig;
import org.sparknmt.job.memory.MemoryPlan;
import org.sparknmt.job.train.SliceReducers;
import org.sparknmt.job.train.TrainConfig;
import org.sparknmt.model.TransformerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparknmt memory --conf FILE}: the memory a training job of this configuration needs, and the settings that give it. */
@Command(name = "memory", mixinStandardHelpOptions = true,
    description = "Print the memory one training task of this configuration needs (from the model's size and data.max_tokens) "
        + "and the Spark executor and launcher settings that give it.")
public final class MemoryCommand implements Callable<Integer> {
  @Mixin ConfigOptions configOptions;

  @Override
  public Integer call() {
    JobConfig config = configOptions.load();
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    PrepareConfig data = config.bind("data", PrepareConfig.class);
    TrainConfig train = config.bind("train", TrainConfig.class);
    MemoryPlan plan = MemoryPlan.of(model, data.vocabSize(), data.maxTokens());
    System.out.printf("model: %,d parameters (d_model %d, d_ff %d, %d+%d layers, vocabulary %d); data.max_tokens %d%n",
        plan.parameters(), model.dModel(), model.dFf(), model.layers(), model.layers(), data.vocabSize(), data.maxTokens());
    System.out.printf("  model state (parameters, gradients, Adam, averaging copies): %d MiB%n", plan.modelStateBytes() >> 20);
    System.out.printf("  one training step's arrays (ND4J workspace):                %d MiB%n", plan.activationBytes() >> 20);
    System.out.printf("cluster, one training task per executor:%n");
    System.out.printf("  spark.executor.memory=%dm spark.executor.memoryOverhead=%dm%n", plan.executorHeapMib(),
        plan.executorOverheadMib());
    System.out.printf("  SPARKNMT_SUBMIT_ARGS=\"%s\"%n", plan.sparkSubmitArgs());
    // the executors are unknown here: S for as many as the workers (train.workers = 0: the cores, as in
    // local[*]), which is what a preset's one task per executor gives; in local mode they are the tasks
    int workers = train.workerCount(Runtime.getRuntime().availableProcessors());
    int slices = SliceReducers.count(plan.parameters(), plan.stateBytes(), workers, workers);
    System.out.printf("driver, %d averaging reducers (train.workers %d):%n", slices, workers);
    System.out.printf("  --driver-memory %dm spark.driver.maxResultSize=%dm (one averaged state, whatever the workers)%n",
        plan.driverHeapMib(slices, workers, 0), plan.driverMaxResultSizeMib(slices));
    System.out.printf("local mode, %d training task(s) in one JVM (train.workers; 0 = local[*]'s cores):%n", workers);
    System.out.printf("  SPARKNMT_DRIVER_MEMORY=%dm SPARKNMT_NATIVE_MEMORY=%dm%n",
        plan.driverHeapMib(SliceReducers.count(plan.parameters(), plan.stateBytes(), workers, 1), workers, workers),
        plan.localNativeMib(workers));
    return 0;
  }
}
