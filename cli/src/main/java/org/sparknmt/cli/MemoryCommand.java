package org.sparknmt.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.train.MemoryPlan;
import org.sparknmt.train.SliceReducers;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.translate.DecodingMemory;
import org.sparknmt.translate.TranslateConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt memory --conf FILE}: the memory a training job of this configuration needs, and the settings that
 * give it; with {@code --run}, what translating with the run's checkpoints needs.
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
    description = {"Print the memory one training task of this configuration needs (from the model's size and data.max_tokens) "
        + "and the Spark executor and launcher settings that give it.",
        "With --run: what translate and evaluate need with that run's --checkpoint (several: an ensemble), from the model's "
        + "size and the search's batch size, beam and length limit (translate's options or keys)."})
public final class MemoryCommand implements Callable<Integer> {
  @Mixin SearchOptions search;
  @Mixin CheckpointOption checkpoint;

  @Option(names = "--run", paramLabel = "URI", description = "Plan translation with this run's checkpoints instead of training.")
  String run;

  @Option(names = "--tasks", paramLabel = "N", defaultValue = "0",
      description = "With --run: searches at once in one JVM (local[N]'s N); 0 = this machine's cores (local[*]). Default: ${DEFAULT-VALUE}.")
  int tasks;

  @Option(names = "--source-length", paramLabel = "N", defaultValue = "0",
      description = "With --run: the longest source sentence in subwords; 0 = data.max_subwords, the longest that prepare keeps."
          + " Default: ${DEFAULT-VALUE}.")
  int sourceLength;

  @Override
  public Integer call() throws IOException {
    if (run != null) {
      return decoding();
    }
    JobConfig config = search.configOptions().load();
    TransformerConfig model = config.bind("model", TransformerConfig.class);
    PrepareConfig data = config.bind("data", PrepareConfig.class);
    TrainConfig train = config.bind("train", TrainConfig.class);
    MemoryPlan plan =
        MemoryPlan.of(model, data.vocabSize(), data.maxTokens(), train.microBatches(), data.maxSubwords() + 1);
    System.out.printf("model: %,d parameters (d_model %d, d_ff %d, %d+%d layers, vocabulary %d); data.max_tokens %d%n",
        plan.parameters(), model.dModel(), model.dFf(), model.layers(), model.layers(), data.vocabSize(), data.maxTokens());
    if (train.microBatches() > 1) {
      System.out.printf("  train.micro_batches %d: a step's passes cover up to %d tokens at a time%n", train.microBatches(),
          plan.stepTokens());
    }
    System.out.printf("  a worker's network (parameters, gradients, Adam, a step's temporaries%s): %d MiB%n",
        train.microBatches() > 1 ? ", gradients' sum" : "", plan.modelStateBytes() >> 20);
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
    long localHeap = plan.driverHeapMib(SliceReducers.count(plan.parameters(), plan.stateBytes(), workers, 1), workers, workers);
    System.out.printf("  SPARKNMT_DRIVER_MEMORY=%dm SPARKNMT_NATIVE_MEMORY=%dm (the process: %d MiB)%n", localHeap,
        plan.localNativeMib(workers), plan.localProcessMib(localHeap, workers));
    return 0;
  }

  private Integer decoding() throws IOException {
    JobConfig config = search.configOptions().load();
    TranslateConfig translate = search.config();
    List<String> specs = checkpoint.names();
    CheckpointStore store = new CheckpointStore(run, new Configuration());
    CheckpointStore.Checkpoint first = store.resolve(specs.get(0));
    ModelArtifact.Metadata model;
    try (InputStream in = store.openModel(first)) {
      model = ModelArtifact.metadata(in, first.path().toString());
    }
    int longest = sourceLength > 0 ? sourceLength : config.bind("data", PrepareConfig.class).maxSubwords();
    int searches = tasks > 0 ? tasks : Runtime.getRuntime().availableProcessors();
    DecodingMemory plan = DecodingMemory.of(model.config(), model.vocabSize(), specs.size(), translate.batchSize(),
        translate.search().beamWidth(), longest, translate.search().maxLengthA(), translate.search().maxLengthB());
    TransformerConfig m = model.config();
    System.out.printf("translate with %s of %s: %,d parameters (d_model %d, d_ff %d, %d+%d layers, vocabulary %d) x %d"
        + " checkpoint(s); batches of %d sources of up to %d subwords, beam %d%n", String.join(" + ", specs), run,
        plan.parameters(), m.dModel(), m.dFf(), m.layers(), m.layers(), model.vocabSize(), specs.size(),
        translate.batchSize(), longest, translate.search().beamWidth());
    System.out.printf("  one search's workspaces: %d MiB (the encoding and the decoder's caches) + %d MiB (an encoder layer"
        + " or a decoding step)%n", plan.searchBytes() >> 20, plan.stepBytes() >> 20);
    System.out.printf("driver: --driver-memory %dm (the checkpoints read and broadcast)%n", plan.heapMib());
    System.out.printf("local mode, %d search(es) at once in one JVM:%n", searches);
    System.out.printf("  SPARKNMT_DRIVER_MEMORY=%dm SPARKNMT_NATIVE_MEMORY=%dm (the process: %d MiB)%n", plan.heapMib(),
        plan.nativeMib(searches), plan.processMib(searches));
    return 0;
  }
}
