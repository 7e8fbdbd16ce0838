package org.sparknmt.common.checkpoint;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.common.vocab.SpecialTokens;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.decode.ControlTokens;
import org.sparknmt.model.decode.Translator;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * The model of a checkpoint, read through {@link ModelArtifact} after checking that it was trained
 * with the vocabulary it is used with: the one way training (resume), averaging, translation,
 * evaluation and the attention maps open a trained model. The graph keeps its updater state, which
 * resuming and averaging need and decoding ignores.
 *
 * @param config the Transformer configuration the artifact records
 */
public record TrainedModel(CheckpointStore.Checkpoint checkpoint, TransformerConfig config, ComputationGraph graph) {
  /** The vocabulary's reserved ids as decoding needs them. */
  public static final ControlTokens TOKENS =
      new ControlTokens(SpecialTokens.PAD, SpecialTokens.BOS, SpecialTokens.EOS);

  /** A trained model with the vocabulary of the run it belongs to: what decoding text needs. */
  public record WithVocabulary(TrainedModel model, BpeModel vocabulary) {}

  /**
   * Checkpoint {@code spec} of run {@code runUri} ({@code latest}, {@code best}, {@code step-N},
   * {@code N}, a folder name such as {@code avg-last-5-step-N}, or a path), with the run's vocabulary.
   */
  public static WithVocabulary open(String runUri, String spec, Configuration hadoop) throws IOException {
    PreparedData data = PreparedData.open(runUri, hadoop);
    CheckpointStore store = new CheckpointStore(runUri, hadoop);
    return open(store, store.resolve(spec), data);
  }

  /**
   * A resolved checkpoint with the vocabulary of {@code data}, checked as {@link #read} checks it, for
   * decoding: without the updater state.
   */
  public static WithVocabulary open(CheckpointStore store, CheckpointStore.Checkpoint checkpoint, PreparedData data) {
    return new WithVocabulary(read(store, checkpoint, data.vocabularySha256(), false), data.vocabulary());
  }

  /**
   * Reads the model of {@code checkpoint}.
   *
   * @param vocabularySha256 the hash of the vocabulary the model is to be used with
   * @throws IllegalArgumentException when the checkpoint was trained with another vocabulary
   * @throws IllegalStateException naming the checkpoint when its model cannot be read
   */
  public static TrainedModel read(CheckpointStore store, CheckpointStore.Checkpoint checkpoint,
      String vocabularySha256) {
    return read(store, checkpoint, vocabularySha256, true);
  }

  /** As {@link #read(CheckpointStore, CheckpointStore.Checkpoint, String)}, with the updater state only when {@code updater}. */
  private static TrainedModel read(CheckpointStore store, CheckpointStore.Checkpoint checkpoint, String vocabularySha256,
      boolean updater) {
    String trainedWith = checkpoint.state().vocabularySha256();
    if (!vocabularySha256.equals(trainedWith)) {
      throw new IllegalArgumentException("checkpoint " + checkpoint.path() + " was trained with vocabulary "
          + trainedWith + ", but the run's data has vocabulary " + vocabularySha256
          + ": use the run (and its RUN/data) that the checkpoint belongs to");
    }
    try (InputStream in = store.openModel(checkpoint)) {
      String source = checkpoint.path().toString();
      ModelArtifact.Loaded loaded = updater ? ModelArtifact.read(in, trainedWith, source)
          : ModelArtifact.readForDecoding(in, trainedWith, source);
      return new TrainedModel(checkpoint, loaded.metadata().config(), loaded.graph());
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("checkpoint " + checkpoint.path() + " is unreadable: " + e.getMessage(), e);
    }
  }

  /** A translator over this model's parameters (one per thread). */
  public Translator translator() {
    return translator(graph);
  }

  /** A translator over the parameters of a graph being trained or restored. */
  public static Translator translator(ComputationGraph graph) {
    return Translator.of(graph, TOKENS);
  }

  /** The search input for a sentence's subword ids: the ids followed by EOS. */
  public static int[] source(int[] ids) {
    int[] source = Arrays.copyOf(ids, ids.length + 1);
    source[ids.length] = SpecialTokens.EOS;
    return source;
  }
}
