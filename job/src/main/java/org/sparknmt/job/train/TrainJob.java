package org.sparknmt.job.train;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.GradientNormalization;
import org.deeplearning4j.nn.conf.graph.LayerVertex;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.spark.impl.graph.SparkComputationGraph;
import org.deeplearning4j.spark.impl.paramavg.ParameterAveragingTrainingMaster;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.datasets.Seeds;
import org.sparknmt.datasets.shard.Batch;
import org.sparknmt.datasets.spark.PreparedData;
import org.sparknmt.datasets.spark.Split;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.datasets.vocab.BpeModel;
import org.sparknmt.job.checkpoint.CheckpointStore;
import org.sparknmt.job.checkpoint.CheckpointWritePause;
import org.sparknmt.job.checkpoint.DataCursor;
import org.sparknmt.job.checkpoint.StorageFailures;
import org.sparknmt.job.checkpoint.TrainingState;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.TransformerConfig;
import org.sparknmt.model.TransformerFactory;
import scala.Tuple2;

/**
 * Trains the Transformer on the shards of {@code RUN/data} with DL4J parameter averaging on Spark,
 * checkpointing to {@code RUN/checkpoints} and resuming from the newest intact checkpoint.
 *
 * <p>One epoch is a fixed sequence of averaging rounds ({@link RoundPlan}); the checkpoint records
 * the next round, so a resumed run replays exactly the rounds the stopped one had not done.
 */
public final class TrainJob {
  private static final Logger LOG = LoggerFactory.getLogger(TrainJob.class);
  /** Names the dropout stream among the run's random streams. */
  private static final long DROPOUT_STREAM = 2;

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
    CheckpointStore store = new CheckpointStore(runUri, sc.hadoopConfiguration(), checkpointPause);
    Optional<CheckpointStore.Checkpoint> resumeFrom = store.latest();
    if (start == Start.RESUME && resumeFrom.isEmpty()) {
      throw new IllegalArgumentException("--resume: no intact checkpoint under " + store.root());
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
    JavaPairRDD<Long, Batch> train = data.batches(sc, Split.TRAIN).zipWithIndex().mapToPair(Tuple2::swap)
        .persist(StorageLevel.fromString(config.storageLevel()));
    int batches = Math.toIntExact(train.count());
    int workers = config.workers() > 0 ? config.workers() : sc.defaultParallelism();
    DataCursor cursor = new DataCursor(workers, config.averagingFrequency(), batches);
    if (state.cursor() != null) {
      String refusal = state.cursor().refusal(cursor, state.round());
      if (refusal != null) {
        throw new IllegalArgumentException("cannot resume from " + resumeFrom.orElseThrow().path() + ": " + refusal);
      }
    }
    WorkerTimings timings = new WorkerTimings(sc);
    BlockMomentum outer = config.outer().plainAveraging() ? null
        : new BlockMomentum(config.outer(), resumeFrom.isPresent() ? restoreOuter(store, resumeFrom.get()) : null);
    TokenBatchTrainingMaster master = new TokenBatchTrainingMaster(
        new ParameterAveragingTrainingMaster.Builder(1)
            .workerPrefetchNumBatches(0)
            .averagingFrequency(config.averagingFrequency())
            .batchSizePerWorker(1)
            .saveUpdater(config.averageUpdaterState())
            .rngSeed(config.seed()),
        timings, outer);
    SparkComputationGraph sparkNet = new SparkComputationGraph(sc, graph, master);
    LOG.info("{} training batches, {} valid batches; {} workers x {} batches per averaging round",
        batches, valid.size(), workers, config.averagingFrequency());

    state = state.withCursor(cursor);
    Progress progress = new Progress(config, batches, workers, state, timings);
    try (MetricsSink metrics = new MetricsSink(runUri, state.step(), sc)) {
      return new Loop(store, sparkNet, train, valid, batches, workers, master, outer, progress, metrics,
          data.vocabulary(), resumeFrom.map(c -> c.path().getName()).orElse(null)).run(state);
    } finally {
      train.unpersist(false);
    }
  }

  private TrainingState initialState(String vocabularySha256) {
    return new TrainingState(0, 0, 0, 0, 0, config.seed(), vocabularySha256, renderedConfig, Map.of(),
        Double.POSITIVE_INFINITY, 0, 0, null);
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
      String vocabularySha256) throws IOException {
    TrainingState state = checkpoint.state();
    if (!state.vocabularySha256().equals(vocabularySha256)) {
      throw new IllegalArgumentException("checkpoint " + checkpoint.path() + " was trained with vocabulary "
          + state.vocabularySha256() + " but " + runUri + "/data has " + vocabularySha256);
    }
    try (InputStream in = store.openModel(checkpoint)) {
      ModelArtifact.Loaded loaded = ModelArtifact.read(in, vocabularySha256, checkpoint.path().toString());
      TransformerConfig trained = loaded.metadata().config();
      if (!trained.equals(modelConfig)) {
        throw new IllegalArgumentException("checkpoint " + checkpoint.path() + " holds model " + trained
            + " but the configuration asks for " + modelConfig
            + "; resume with the same model settings or train into another --run");
      }
      return loaded.graph();
    }
  }

  /**
   * The outer optimizer's momentum saved with {@code checkpoint}; null (a zero momentum) when the
   * checkpoint has none, i.e. it was written with plain averaging.
   */
  private static INDArray restoreOuter(CheckpointStore store, CheckpointStore.Checkpoint checkpoint)
      throws IOException {
    Optional<InputStream> saved = store.openOuter(checkpoint);
    if (saved.isEmpty()) {
      LOG.info("{} has no outer optimizer state: the outer momentum starts at zero", checkpoint.path());
      return null;
    }
    try (DataInputStream in = new DataInputStream(saved.get())) {
      return Nd4j.read(in);
    }
  }

  private static void writeArray(INDArray array, OutputStream out) throws IOException {
    DataOutputStream data = new DataOutputStream(out);
    Nd4j.write(array, data);
    data.flush();
  }

  /** The training loop over epochs and rounds, with validation, checkpoints and early stopping. */
  private final class Loop {
    private final CheckpointStore store;
    private final SparkComputationGraph sparkNet;
    private final JavaPairRDD<Long, Batch> train;
    private final List<Batch> valid;
    private final int batches;
    private final int workers;
    private final TokenBatchTrainingMaster master;
    private final BlockMomentum outer;
    private final Progress progress;
    private final MetricsSink metrics;
    private final LrSchedule schedule;
    private final BpeEncoder bpe;
    /** The newest checkpoint of this run known to be written (null: none), named in errors. */
    private String lastCheckpoint;

    Loop(CheckpointStore store, SparkComputationGraph sparkNet, JavaPairRDD<Long, Batch> train, List<Batch> valid,
        int batches, int workers, TokenBatchTrainingMaster master, BlockMomentum outer, Progress progress,
        MetricsSink metrics, BpeModel vocabulary, String resumedFrom) {
      this.store = store;
      this.sparkNet = sparkNet;
      this.train = train;
      this.valid = valid;
      this.batches = batches;
      this.workers = workers;
      this.master = master;
      this.outer = outer;
      this.progress = progress;
      this.metrics = metrics;
      this.schedule = LrSchedule.of(config.lrSchedule(), modelConfig.dModel(), config.warmupSteps(), config.lr());
      this.bpe = new BpeEncoder(vocabulary);
      this.lastCheckpoint = resumedFrom;
    }

    Result run(TrainingState start) throws IOException {
      TrainingState state = start;
      Validation.Result lastValidation = null;
      while (true) {
        String stop = stopReason(state);
        if (stop != null) {
          LOG.info("stopping at step {}: {}", state.step(), stop);
          return new Result(state.step(), state.epoch(), sparkNet.getScore(), lastValidation, stop);
        }
        RoundPlan plan = new RoundPlan(config.seed(), state.epoch(), batches, workers, config.averagingFrequency());
        int round = state.round();
        Map<Long, Integer> slots = plan.slots(round);
        sc.setJobGroup("train", String.format("train epoch %d round %d/%d (step %d)",
            state.epoch() + 1, round + 1, plan.rounds(), state.step()), false);
        JavaPairRDD<Integer, Batch> roundData = train
            .filter(indexed -> slots.containsKey(indexed._1()))
            .mapToPair(indexed -> new Tuple2<>(slots.get(indexed._1()), indexed._2()))
            .repartitionAndSortWithinPartitions(new SlotPartitioner(workers, config.averagingFrequency()));
        long dropoutSeed = Seeds.mix(Seeds.mix(Seeds.mix(config.seed(), DROPOUT_STREAM), state.epoch()), round);
        long roundStart = System.nanoTime();
        master.fitRound(sparkNet, roundData, dropoutSeed, state.step(), round + 1, plan.rounds());
        double seconds = state.trainSeconds() + (System.nanoTime() - roundStart) / 1e9;

        long steps = Math.min(config.averagingFrequency(), slots.size());
        long step = state.step() + steps;
        boolean epochEnds = round + 1 == plan.rounds();
        Map<String, Double> measured = new LinkedHashMap<>(state.metrics());
        measured.put("train_loss", sparkNet.getScore());
        state = new TrainingState(step, epochEnds ? state.epoch() + 1 : state.epoch(), epochEnds ? 0 : round + 1,
            plan.rounds(), schedule.rate(step), state.seed(), state.vocabularySha256(), renderedConfig,
            measured, state.bestValidLoss(), state.validationsSinceBest(), seconds, state.cursor());
        progress.afterRound(state, sparkNet.getScore(), metrics);

        boolean validate = epochEnds || crossed(step, steps, config.validateEverySteps())
            || config.maxSteps() > 0 && step >= config.maxSteps() || outOfTime(state);
        if (validate && !valid.isEmpty()) {
          lastValidation = Validation.of(sparkNet.getNetwork(), valid);
          if (config.validBleuSentences() > 0) {
            lastValidation = lastValidation.withBleu(
                ValidationBleu.of(sparkNet.getNetwork(), valid, bpe, config.validBleuSentences()));
          }
          state = withValidation(state, lastValidation);
          metrics.valid(step, state, lastValidation);
        }
        if (validate || crossed(step, steps, config.checkpointEverySteps())) {
          checkpoint(state);
        }
      }
    }

    private String stopReason(TrainingState state) {
      if (state.epoch() >= config.maxEpochs()) {
        return "max_epochs " + config.maxEpochs() + " reached";
      }
      if (config.maxSteps() > 0 && state.step() >= config.maxSteps()) {
        return "max_steps " + config.maxSteps() + " reached";
      }
      if (outOfTime(state)) {
        return String.format("max_minutes %s reached (%.1f minutes of training)", config.maxMinutes(),
            state.trainSeconds() / 60);
      }
      if (config.patience() > 0 && state.validationsSinceBest() >= config.patience()) {
        return "no better validation loss in " + config.patience() + " validations (best "
            + String.format("%.4f", state.bestValidLoss()) + ")";
      }
      return null;
    }

    private boolean outOfTime(TrainingState state) {
      return config.maxMinutes() > 0 && state.trainSeconds() >= config.maxMinutes() * 60;
    }

    private TrainingState withValidation(TrainingState state, Validation.Result validation) {
      Map<String, Double> measured = new LinkedHashMap<>(state.metrics());
      measured.put("valid_loss", validation.loss());
      measured.put("valid_accuracy", validation.accuracy());
      if (!Double.isNaN(validation.bleu())) {
        measured.put("valid_bleu", validation.bleu());
      }
      boolean better = validation.loss() < state.bestValidLoss();
      LOG.info("validation at step {}: loss {} accuracy {}%{}{}", state.step(),
          String.format("%.4f", validation.loss()), String.format("%.2f", 100 * validation.accuracy()),
          Double.isNaN(validation.bleu()) ? "" : String.format(" BLEU %.2f", validation.bleu()),
          better ? " (best so far)" : "");
      return new TrainingState(state.step(), state.epoch(), state.round(), state.roundsInEpoch(), state.learningRate(),
          state.seed(), state.vocabularySha256(), state.config(), measured,
          better ? validation.loss() : state.bestValidLoss(), better ? 0 : state.validationsSinceBest() + 1,
          state.trainSeconds(), state.cursor());
    }

    /**
     * Writes the checkpoint, prunes old ones and rewrites the metrics. Failures that may pass (a
     * DataNode or the NameNode restarting) are retried for {@code checkpoint_retry_seconds} while
     * training waits; out of space fails at once. Either way the error names the checkpoint, the
     * cause and the checkpoint a rerun resumes from; earlier checkpoints are never touched by a
     * failed write (it goes to a temporary folder first).
     */
    private void checkpoint(TrainingState state) throws IOException {
      long start = System.nanoTime();
      ComputationGraph graph = sparkNet.getNetwork();
      org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(store.root(), CheckpointStore.name(state.step()));
      org.apache.hadoop.fs.Path path;
      try {
        path = StorageFailures.retrying("checkpoint " + target,
            Duration.ofMillis(Math.round(config.checkpointRetrySeconds() * 1000)), LOG, () -> {
              org.apache.hadoop.fs.Path written =
                  store.save(state, out -> ModelArtifact.write(graph, state.vocabularySha256(), out),
                      outer == null || outer.velocity() == null ? null
                          : out -> writeArray(outer.velocity(), out));
              store.prune(config.keepLast());
              metrics.flush();
              return written;
            });
      } catch (StorageFailures.RetriesExhausted e) {
        throw checkpointFailure(target, e, lastCheckpoint);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while retrying checkpoint " + target);
      }
      lastCheckpoint = path.getName();
      LOG.info("checkpoint {} written in {} s", path, String.format("%.1f", (System.nanoTime() - start) / 1e9));
    }
  }

  /**
   * The error a run ends with when checkpoint {@code target} could not be written: out of space, or
   * failing for the whole retry budget; it names the cause and what a rerun resumes from
   * ({@code lastCheckpoint}, null when this run has none).
   */
  static IOException checkpointFailure(org.apache.hadoop.fs.Path target, StorageFailures.RetriesExhausted e,
      String lastCheckpoint) {
    String resume = lastCheckpoint == null ? "there is no earlier checkpoint of this run, so a rerun starts over"
        : "the last checkpoint written is " + lastCheckpoint + "; a rerun of the same command resumes from it";
    if (StorageFailures.isOutOfSpace(e)) {
      return new IOException("out of space writing checkpoint " + target + ": " + e.getMessage()
          + "; earlier checkpoints are kept; " + resume + " once there is room", e);
    }
    return new IOException(String.format("writing checkpoint %s failed for %.0f s (%d attempts): %s; %s",
        target, e.elapsed().toMillis() / 1e3, e.attempts(), e.getMessage(), resume), e);
  }

  /** Whether a multiple of {@code every} lies in (step − steps, step]. */
  static boolean crossed(long step, long steps, long every) {
    return every > 0 && step / every > (step - steps) / every;
  }
}
