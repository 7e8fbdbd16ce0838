package org.sparknmt.job.translate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.sparknmt.datasets.spark.PreparedData;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.datasets.vocab.BpeModel;
import org.sparknmt.datasets.vocab.SpecialTokens;
import org.sparknmt.job.checkpoint.CheckpointStore;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.decode.Translator;

/**
 * What translation needs of a checkpoint, in one serializable value to broadcast: the graph
 * (configuration and parameters, without the optimizer state, which only training needs) and the
 * run's vocabulary, after checking on the driver that both belong together. Executors restore the
 * graph once per JVM, on first use, and every task builds its own {@link SentenceTranslator} over
 * the shared parameters.
 */
public final class TranslationModel implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String checkpoint;
  private final long step;
  private final int maxLength;
  private final byte[] graphBytes;
  private final BpeModel vocabulary;
  private transient volatile ComputationGraph graph;

  private TranslationModel(String checkpoint, long step, int maxLength, byte[] graphBytes, BpeModel vocabulary) {
    this.checkpoint = checkpoint;
    this.step = step;
    this.maxLength = maxLength;
    this.graphBytes = graphBytes;
    this.vocabulary = vocabulary;
  }

  /**
   * The checkpoint {@code spec} of run {@code runUri} ({@code latest}, {@code best}, {@code step-N},
   * {@code N}, a folder name such as {@code avg-last-5-step-N}, or a path), with the run's vocabulary.
   */
  public static TranslationModel load(String runUri, String spec, Configuration hadoop) throws IOException {
    PreparedData data = PreparedData.open(runUri, hadoop);
    CheckpointStore store = new CheckpointStore(runUri, hadoop);
    return of(store, store.resolve(spec), data);
  }

  /**
   * A resolved checkpoint with the vocabulary of {@code data}.
   *
   * @throws IllegalArgumentException when the checkpoint was trained with another vocabulary
   * @throws IllegalStateException naming the checkpoint when its model cannot be read
   */
  public static TranslationModel of(CheckpointStore store, CheckpointStore.Checkpoint checkpoint, PreparedData data) {
    String trainedWith = checkpoint.state().vocabularySha256();
    if (!data.vocabularySha256().equals(trainedWith)) {
      throw new IllegalArgumentException("checkpoint " + checkpoint.path() + " was trained with vocabulary " + trainedWith
          + ", but the run's data has vocabulary " + data.vocabularySha256()
          + ": translate with the run (and its RUN/data) that the checkpoint belongs to");
    }
    ModelArtifact.Loaded loaded;
    try (InputStream in = store.openModel(checkpoint)) {
      loaded = ModelArtifact.read(in, data.vocabularySha256(), checkpoint.path().toString());
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("checkpoint " + checkpoint.path() + " is unreadable: " + e.getMessage(), e);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      ModelSerializer.writeModel(loaded.graph(), bytes, false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize the model of " + checkpoint.path(), e);
    }
    return new TranslationModel(checkpoint.path().getName(), checkpoint.step(), loaded.metadata().config().maxLength(),
        bytes.toByteArray(), data.vocabulary());
  }

  /** The checkpoint's folder name, e.g. {@code step-00001000}. */
  public String checkpoint() {
    return checkpoint;
  }

  public long step() {
    return step;
  }

  public BpeModel vocabulary() {
    return vocabulary;
  }

  /** A translator of lines for one task; the graph is restored on the first call in this JVM. */
  public SentenceTranslator sentenceTranslator(TranslateConfig config) {
    Translator translator = Translator.of(graph(),
        new org.sparknmt.model.decode.SpecialTokens(SpecialTokens.PAD, SpecialTokens.BOS, SpecialTokens.EOS));
    return new SentenceTranslator(translator, new BpeEncoder(vocabulary), config, maxLength);
  }

  private ComputationGraph graph() {
    ComputationGraph restored = graph;
    if (restored == null) {
      synchronized (this) {
        restored = graph;
        if (restored == null) {
          try {
            restored = ModelSerializer.restoreComputationGraph(new ByteArrayInputStream(graphBytes), false);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot restore the model of checkpoint " + checkpoint, e);
          }
          graph = restored;
        }
      }
    }
    return restored;
  }
}
