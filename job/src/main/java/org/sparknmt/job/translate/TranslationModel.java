package org.sparknmt.job.translate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.datasets.vocab.BpeModel;
import org.sparknmt.job.checkpoint.TrainedModel;
import org.sparknmt.job.threads.SearchThreads;

/**
 * What translation needs of a checkpoint, in one serializable value to broadcast: the graph
 * (configuration and parameters, without the optimizer state, which only training needs) and the
 * run's vocabulary, after checking on the driver that both belong together. Executors restore the
 * graph once per JVM, on first use, and every task builds its own {@link SentenceTranslator} over
 * the shared parameters.
 */
public final class TranslationModel implements Serializable {
  private static final long serialVersionUID = 1L;
  // as long as Spark keeps an idle executor thread
  private static final long SEARCH_THREADS_IDLE_SECONDS = 60;

  private final String checkpoint;
  private final long step;
  private final int maxLength;
  private final byte[] graphBytes;
  private final BpeModel vocabulary;
  private transient volatile ComputationGraph graph;
  private transient volatile SearchThreads searchThreads;

  private TranslationModel(String checkpoint, long step, int maxLength, byte[] graphBytes, BpeModel vocabulary) {
    this.checkpoint = checkpoint;
    this.step = step;
    this.maxLength = maxLength;
    this.graphBytes = graphBytes;
    this.vocabulary = vocabulary;
  }

  /** Checkpoint {@code spec} of run {@code runUri}, as {@link TrainedModel#open(String, String, Configuration)} opens it. */
  public static TranslationModel load(String runUri, String spec, Configuration hadoop) throws IOException {
    return of(TrainedModel.open(runUri, spec, hadoop));
  }

  /** A trained model with its run's vocabulary, ready to broadcast. */
  public static TranslationModel of(TrainedModel.WithVocabulary opened) {
    TrainedModel model = opened.model();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      ModelSerializer.writeModel(model.graph(), bytes, false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize the model of " + model.checkpoint().path(), e);
    }
    return new TranslationModel(model.checkpoint().path().getName(), model.checkpoint().step(),
        model.config().maxLength(), bytes.toByteArray(), opened.vocabulary());
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
    return new SentenceTranslator(TrainedModel.translator(graph()), new BpeEncoder(vocabulary), config, maxLength);
  }

  /** The threads this JVM's tasks search on with this model ({@link SearchThreads}), made on the first call. */
  public SearchThreads searchThreads() {
    SearchThreads threads = searchThreads;
    if (threads == null) {
      synchronized (this) {
        threads = searchThreads;
        if (threads == null) {
          threads = new SearchThreads(SEARCH_THREADS_IDLE_SECONDS);
          searchThreads = threads;
        }
      }
    }
    return threads;
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
