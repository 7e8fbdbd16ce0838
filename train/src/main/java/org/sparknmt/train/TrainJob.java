package org.sparknmt.train;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.GradientNormalization;
import org.deeplearning4j.nn.conf.graph.LayerVertex;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Adam;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.CheckpointWritePause;
import org.sparknmt.base.checkpoint.DataCursor;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.data.IndexedBatches;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * Trains the Transformer on the shards of {@code RUN/data} with DL4J parameter averaging on Spark,
 * checkpointing to {@code RUN/checkpoints} and resuming from the newest intact checkpoint.
 *
 * <p>One epoch is a fixed sequence of averaging rounds ({@link RoundPlan}); the checkpoint records
 * the next round, so a resumed run replays exactly the rounds the stopped one had not done.
 */
public final class TrainJob {
  private static final Logger LOG = LoggerFactory.getLogger(TrainJob.class);

  private final JavaSparkContext sc;
  private final String runUri;
  private final TransformerConfig modelConfig;
  private final TrainConfig config;
  private final String renderedConfig;
  private final CheckpointWritePause checkpointPause;

  /** How a run starts with respect to the checkpoints already under {@code RUN/checkpoints}. */
  public enum Start {
    /** From the newest intact checkpoint, or afresh when there is no {@code step-N} folder at all. */
    RESUME_OR_FRESH,
    /** From the newest intact checkpoint; none is an error ({@code --resume}). */
    RESUME,
    /** From the newest intact checkpoint, or afresh even when every one is damaged ({@code --restart}). */
    RESTART
  }

  /** What a run ended with. */
  public record Result(long step, int epoch, double trainLoss, Validation.Result lastValidation, String stopReason) {}

  public TrainJob(JavaSparkContext sc, String runUri, TransformerConfig modelConfig, TrainConfig config,
      String renderedConfig) {
    this(sc, runUri, modelConfig, config, renderedConfig, CheckpointWritePause.NONE);
  }

  /** A job whose checkpoint writes stop where {@code checkpointPause} says (a fault test's hook). */
  public TrainJob(JavaSparkContext sc, String runUri, TransformerConfig modelConfig, TrainConfig config,
      String renderedConfig, CheckpointWritePause checkpointPause) {
    this.sc = sc;
    this.runUri = runUri;
    this.modelConfig = modelConfig;
    this.config = config;
    this.renderedConfig = renderedConfig;
    this.checkpointPause = checkpointPause;
  }

  /**
   * Trains until {@code max_epochs}, {@code max_steps}, {@code max_minutes} or early stopping. When
   * checkpoints exist but none is intact, it refuses to start over (that would overwrite them and
   * drop their metrics) unless {@code start} is {@link Start#RESTART}.
   */
  public Result run(Start start) throws IOException {
    PreparedData data = PreparedData.open(runUri, sc.hadoopConfiguration());
    requireFits(data);
    CheckpointStore store = new CheckpointStore(runUri, sc.hadoopConfiguration(), checkpointPause);
    Optional<CheckpointStore.Checkpoint> resumeFrom = store.latest();
    if (start == Start.RESUME && resumeFrom.isEmpty()) {
      throw new UsageException("--resume: no intact checkpoint under " + store.root());
    }
    if (start != Start.RESTART && resumeFrom.isEmpty()) {
      Map<String, String> damaged = store.damaged();
      if (!damaged.isEmpty()) {
        throw new IOException(store.root() + " holds " + damaged.size() + " checkpoint(s) and none is intact ("
            + damaged.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("; "))
            + "); a fresh start would overwrite them: restore them, or rerun with --restart to train from step 0");
      }
    }
    ComputationGraph graph = resumeFrom.isPresent()
        ? restore(store, resumeFrom.get(), data.vocabularySha256())
        : create(data.vocabulary().size());
    TrainingState state = resumeFrom.map(CheckpointStore.Checkpoint::state)
        .orElseGet(() -> initialState(data.vocabularySha256()));
    LOG.info("{} at step {} (epoch {}, round {}); {} parameters; vocabulary {} ({} types)",
        resumeFrom.isPresent() ? "resuming from " + resumeFrom.get().path() : "starting",
        state.step(), state.epoch() + 1, state.round(), graph.params().length(),
        data.vocabularySha256().substring(0, 12), data.vocabulary().size());
    // Before the pass that caches the training data and before any training: a full disk, an exhausted
    // quota or an unwritable folder is an error now, not at the first checkpoint. A float32 checkpoint
    // holds the parameters and Adam's two moments.
    store.checkWritable(graph.params().length() * 4L * 3);

    List<Batch> valid = data.batches(sc, Split.VALID).collect();
    // Cached as the rounds first read them: nothing reads the whole training set before the first step.
    IndexedBatches train = data.indexedBatches(sc, Split.TRAIN, config.cachePartitionBatches())
        .persist(StorageLevel.fromString(config.storageLevel()));
    int batches = Math.toIntExact(train.count());
    int workers = config.workerCount(sc.defaultParallelism());
    DataCursor cursor = new DataCursor(workers, config.averagingFrequency(), batches);
    String refusal = state.refusal(cursor, config.seed());
    if (refusal != null) {
      throw new UsageException("cannot resume from " + resumeFrom.orElseThrow().path() + ": " + refusal);
    }
    WorkerTimings timings = new WorkerTimings(sc);
    BlockMomentum outer = config.outer().plainAveraging() ? null
        : BlockMomentum.resumed(config.outer(), store, resumeFrom);
    DriverBytesIn received = DriverBytesIn.register(sc.sc());
    ParameterAveraging averaging =
        new ParameterAveraging(sc, graph, config.averageUpdaterState(), config.microBatches(), timings, outer,
            received);
    LOG.info("{} training batches, {} valid batches; {} workers x {} batches per averaging round",
        batches, valid.size(), workers, config.averagingFrequency());

    state = state.continuedBy(cursor, config.seed(), renderedConfig);
    Progress progress = new Progress(config, batches, workers, sc.defaultParallelism(), state, timings);
    try (averaging; MetricsSink metrics = new MetricsSink(runUri, state.step(), sc)) {
      return new TrainingLoop(sc, config, LrSchedule.of(config.lrSchedule(), modelConfig.dModel(),
          config.warmupSteps(), config.lr()), store, averaging, train, valid, batches, workers, progress, metrics,
          data.vocabulary(), resumeFrom.map(c -> c.path().getName()).orElse(null)).run(state);
    } finally {
      // Spark stops a listener queue that this removal empties with a blocking put of its stop signal. On a
      // thread whose interrupt ended the training (a killed checkpoint write) that put throws at once, the
      // queue is left stopped without the signal, and SparkContext.stop() waits on it for ever; so the
      // removal runs uninterrupted and the interrupt is restored after it.
      boolean interrupted = Thread.interrupted();
      try {
        sc.sc().removeSparkListener(received);
        train.rdd().unpersist(false);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * The configuration's check of data.max_subwords against model.max_length, made against the data on
   * disk, which an earlier prepare may have cut with another data.max_subwords: a batch longer than the
   * model would fail mid-training.
   */
  private void requireFits(PreparedData data) {
    int longest = data.longestSentence();
    if (longest + 1 > modelConfig.maxLength()) {
      throw new UsageException(runUri + "/data holds sentences of " + longest + " subwords (prepared with a larger "
          + "data.max_subwords), which with EOS or BOS need " + (longest + 1) + " positions, more than model.max_length ("
          + modelConfig.maxLength() + "): train with model.max_length of at least " + (longest + 1)
          + ", or prepare again with data.max_subwords at most " + (modelConfig.maxLength() - 1));
    }
  }

  private TrainingState initialState(String vocabularySha256) {
    return TrainingState.initial(config.seed(), vocabularySha256, renderedConfig);
  }

  /** A new float32 model with the paper's Adam driven by the configured schedule. */
  ComputationGraph create(int vocabSize) {
    Adam adam = (Adam) TransformerFactory.paperAdam(config.lr());
    adam.setLearningRateSchedule(LrScheduleAdapter.of(config, modelConfig.dModel()));
    ComputationGraphConfiguration conf =
        TransformerFactory.configuration(modelConfig, vocabSize, adam, config.seed(), DataType.FLOAT);
    if (config.clipNorm() > 0) {
      BaseLayer layer = (BaseLayer) ((LayerVertex) conf.getVertices().get(TransformerFactory.TRANSFORMER))
          .getLayerConf().getLayer();
      layer.setGradientNormalization(GradientNormalization.ClipL2PerLayer);
      layer.setGradientNormalizationThreshold(config.clipNorm());
    }
    ComputationGraph graph = new ComputationGraph(conf);
    graph.init();
    return graph;
  }

  private ComputationGraph restore(CheckpointStore store, CheckpointStore.Checkpoint checkpoint,
      String vocabularySha256) {
    TrainedModel trained = TrainedModel.read(store, checkpoint, vocabularySha256);
    if (!trained.config().equals(modelConfig)) {
      throw new UsageException("checkpoint " + checkpoint.path() + " holds model " + trained.config()
          + " but the configuration asks for " + modelConfig
          + "; resume with the same model settings or train into another --run");
    }
    return trained.graph();
  }
}
