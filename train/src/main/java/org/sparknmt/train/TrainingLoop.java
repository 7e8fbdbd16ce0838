package org.sparknmt.train;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.Seeds;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.base.files.StorageFailures;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;
import org.sparknmt.common.data.IndexedBatches;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.threads.LocalTaskThreads;
import org.sparknmt.common.threads.WorkspaceThreads;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.model.ModelArtifact;
import scala.Tuple2;

/**
 * The training loop of {@link TrainJob}: averaging rounds over the epochs, with validation,
 * checkpoints and early stopping, from a start state until a limit or the patience is reached.
 */
final class TrainingLoop {
  private static final long VALIDATION_THREADS_IDLE_SECONDS = 3600;
  private static final Logger LOG = LoggerFactory.getLogger(TrainingLoop.class);
  /** Names the dropout stream among the run's random streams. */
  private static final long DROPOUT_STREAM = 2;

  private final JavaSparkContext sc;
  private final TrainConfig config;
  private final CheckpointStore store;
  private final ParameterAveraging averaging;
  private final IndexedBatches train;
  private final List<Batch> valid;
  private final int batches;
  private final int workers;
  private final Progress progress;
  private final MetricsSink metrics;
  private final LrSchedule schedule;
  private final BpeEncoder bpe;
  // idle between two validations far longer than a search thread usually is: they keep their workspaces
  private final WorkspaceThreads validationSearches = WorkspaceThreads.forSearches(VALIDATION_THREADS_IDLE_SECONDS);
  /** The newest checkpoint of this run known to be written (null: none), named in errors. */
  private String lastCheckpoint;

  TrainingLoop(JavaSparkContext sc, TrainConfig config, LrSchedule schedule,
      CheckpointStore store, ParameterAveraging averaging, IndexedBatches train, List<Batch> valid,
      int batches, int workers, Progress progress, MetricsSink metrics, BpeModel vocabulary,
      String resumedFrom) {
    this.sc = sc;
    this.config = config;
    this.schedule = schedule;
    this.store = store;
    this.averaging = averaging;
    this.train = train;
    this.valid = valid;
    this.batches = batches;
    this.workers = workers;
    this.progress = progress;
    this.metrics = metrics;
    this.bpe = new BpeEncoder(vocabulary);
    this.lastCheckpoint = resumedFrom;
  }

  TrainJob.Result run(TrainingState start) throws IOException {
    TrainingState state = start;
    Validation.Result lastValidation = null;
    while (true) {
      String stop = stopReason(state);
      if (stop != null) {
        LOG.info("stopping at step {}: {}", state.step(), stop);
        return new TrainJob.Result(state.step(), state.epoch(), averaging.score(), lastValidation, stop);
      }
      RoundPlan plan = new RoundPlan(config.seed(), state.epoch(), batches, workers, config.averagingFrequency());
      int round = state.round();
      Map<Long, Integer> slots = plan.slots(round);
      sc.setJobGroup("train", String.format("train epoch %d round %d/%d (step %d)",
          state.epoch() + 1, round + 1, plan.rounds(), state.step()), false);
      JavaPairRDD<Integer, Batch> roundData = train.holding(slots.keySet())
          .filter(indexed -> slots.containsKey(indexed._1()))
          .mapToPair(indexed -> new Tuple2<>(slots.get(indexed._1()), indexed._2()))
          .repartitionAndSortWithinPartitions(new SlotPartitioner(workers, config.averagingFrequency()));
      long dropoutSeed = Seeds.mix(Seeds.mix(Seeds.mix(config.seed(), DROPOUT_STREAM), state.epoch()), round);
      long roundStart = System.nanoTime();
      int steps = plan.steps(round);
      averaging.fitRound(roundData, dropoutSeed, state.step(), steps);
      double seconds = (System.nanoTime() - roundStart) / 1e9;

      boolean epochEnds = round + 1 == plan.rounds();
      state = state.afterRound(steps, plan.rounds(), schedule::rate, averaging.score(), seconds);
      long step = state.step();
      progress.afterRound(state, averaging.score(), seconds, averaging.driverBytesIn(), metrics);

      boolean validate = epochEnds || crossed(step, steps, config.validateEverySteps())
          || config.maxSteps() > 0 && step >= config.maxSteps() || outOfTime(state);
      if (validate && !valid.isEmpty()) {
        averaging.releaseLocalWorkers();
        long validationStart = System.nanoTime();
        lastValidation = Validation.of(averaging.network(), valid);
        if (config.validBleuSentences() > 0) {
          lastValidation = lastValidation.withBleu(validationBleu());
        }
        state = withValidation(state, lastValidation);
        metrics.valid(step, state, lastValidation, (System.nanoTime() - validationStart) / 1e9);
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

  /**
   * Greedy BLEU on the driver, as many searches at once as it has cores; in local mode they share ND4J's
   * threads, as the training tasks do.
   */
  private double validationBleu() {
    int searches = sc.isLocal() ? sc.defaultParallelism() : sc.getConf().getInt("spark.driver.cores", 1);
    try (LocalTaskThreads shared = LocalTaskThreads.share(sc.sc(), searches)) {
      return ValidationBleu.of(averaging.network(), valid, bpe, config.validBleuSentences(), validationSearches,
          searches);
    }
  }

  private TrainingState withValidation(TrainingState state, Validation.Result validation) {
    Map<String, Double> measured = new LinkedHashMap<>();
    measured.put(RunMetric.VALID_LOSS.key(), validation.loss());
    measured.put(RunMetric.VALID_ACCURACY.key(), validation.accuracy());
    if (!Double.isNaN(validation.bleu())) {
      measured.put(RunMetric.VALID_BLEU.key(), validation.bleu());
    }
    TrainingState validated = state.validated(validation.loss(), measured);
    boolean better = validated.validationsSinceBest() == 0;
    LOG.info("validation at step {}: loss {} accuracy {}%{}{}", state.step(),
        String.format("%.4f", validation.loss()), String.format("%.2f", 100 * validation.accuracy()),
        Double.isNaN(validation.bleu()) ? "" : String.format(" BLEU %.2f", validation.bleu()),
        better ? " (best so far)" : "");
    return validated;
  }

  /**
   * Rewrites the metrics, writes the checkpoint and prunes old ones. Failures that may pass (a
   * DataNode or the NameNode restarting) are retried for {@code checkpoint_retry_seconds} while
   * training waits; out of space fails at once. Either way the error names the checkpoint, the
   * cause and the checkpoint a rerun resumes from; earlier checkpoints are never touched by a
   * failed write (it goes to a temporary folder first).
   */
  private void checkpoint(TrainingState state) throws IOException {
    long start = System.nanoTime();
    ComputationGraph graph = averaging.network();
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(store.root(), RunLayout.checkpointName(state.step()));
    org.apache.hadoop.fs.Path path;
    try {
      path = StorageFailures.retrying("checkpoint " + target,
          Duration.ofMillis(Math.round(config.checkpointRetrySeconds() * 1000)), LOG, () -> {
            // The metrics first: a rerun drops lines past the checkpoint it resumes from, but cannot
            // rebuild lines a published checkpoint covers and a kill kept from being written.
            metrics.flush();
            org.apache.hadoop.fs.Path written =
                store.save(state, out -> ModelArtifact.write(graph, state.vocabularySha256(), out),
                    averaging.outerState());
            store.prune(config.keepLast());
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
