package org.sparknmt.translate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.threads.WorkspaceThreads;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.model.decode.Shortlist;
import org.sparknmt.model.decode.Translator;

/**
 * What translation needs of a checkpoint, or of an ensemble of checkpoints, in one serializable value to
 * broadcast: each graph (configuration and parameters, without the optimizer state, which only training
 * needs) and the run's vocabulary, after checking on the driver that they belong together. Executors restore
 * the graphs once per JVM, on first use, and every task builds its own {@link SentenceTranslator} over the
 * shared parameters.
 */
public final class TranslationModel implements Serializable {
  private static final long serialVersionUID = 3L;
  /**
   * The threads this JVM's tasks search on, whatever the model: one per concurrent task, kept as long as
   * Spark keeps an idle executor thread. Each model had threads of its own, and so a workspace on each:
   * a JVM that searched with several models in turn (evaluating checkpoints, a shortlist beside the whole
   * vocabulary, an ensemble) held every model's workspaces at once. Shared, the largest search sizes them.
   */
  private static final WorkspaceThreads SEARCH_THREADS = WorkspaceThreads.forSearches(60);

  private final String checkpoint;
  private final long step;
  private final int maxLength;
  private final List<byte[]> graphBytes;
  private final BpeModel vocabulary;
  private final Shortlist shortlist;
  private transient volatile List<ComputationGraph> graphs;

  private TranslationModel(String checkpoint, long step, int maxLength, List<byte[]> graphBytes, BpeModel vocabulary,
      Shortlist shortlist) {
    this.checkpoint = checkpoint;
    this.step = step;
    this.maxLength = maxLength;
    this.graphBytes = graphBytes;
    this.vocabulary = vocabulary;
    this.shortlist = shortlist;
  }

  /** Checkpoint {@code spec} of run {@code runUri}, as {@link TrainedModel#open(String, String, Configuration)} opens it. */
  public static TranslationModel load(String runUri, String spec, Configuration hadoop) throws IOException {
    return load(runUri, List.of(spec), hadoop);
  }

  /**
   * An ensemble of checkpoints {@code specs} of run {@code runUri} (one: that checkpoint), each opened as
   * {@link TrainedModel#open(String, String, Configuration)} opens it.
   *
   * @throws UsageException naming two of them when they were trained with different vocabularies
   */
  public static TranslationModel load(String runUri, List<String> specs, Configuration hadoop) throws IOException {
    PreparedData data = PreparedData.open(runUri, hadoop);
    CheckpointStore store = new CheckpointStore(runUri, hadoop);
    List<CheckpointStore.Checkpoint> checkpoints = new ArrayList<>();
    for (String spec : specs) {
      checkpoints.add(store.resolve(spec));
    }
    for (int i = 1; i < checkpoints.size(); i++) {
      String first = checkpoints.get(0).state().vocabularySha256();
      String other = checkpoints.get(i).state().vocabularySha256();
      if (!first.equals(other)) {
        throw new UsageException("--checkpoint " + specs.get(0) + " and --checkpoint " + specs.get(i)
            + " were trained with different vocabularies (" + first + " and " + other
            + "): an ensemble averages distributions over one vocabulary");
      }
    }
    return of(checkpoints.stream().map(c -> TrainedModel.open(store, c, data)).toList());
  }

  /** A trained model with its run's vocabulary, ready to broadcast. */
  public static TranslationModel of(TrainedModel.WithVocabulary opened) {
    return of(List.of(opened));
  }

  /**
   * An ensemble of trained models with their run's vocabulary (the first's), ready to broadcast: named by
   * their checkpoints joined with {@code +}, its step the first's, its positions the fewest of theirs.
   */
  public static TranslationModel of(List<TrainedModel.WithVocabulary> ensemble) {
    List<byte[]> graphs = new ArrayList<>();
    for (TrainedModel.WithVocabulary opened : ensemble) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try {
        ModelSerializer.writeModel(opened.model().graph(), bytes, false);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serialize the model of " + opened.model().checkpoint().path(), e);
      }
      graphs.add(bytes.toByteArray());
    }
    TrainedModel first = ensemble.get(0).model();
    return new TranslationModel(
        String.join("+", ensemble.stream().map(m -> m.model().checkpoint().path().getName()).toList()),
        first.checkpoint().step(), ensemble.stream().mapToInt(m -> m.model().config().maxLength()).min().getAsInt(),
        graphs, ensemble.get(0).vocabulary(), null);
  }

  /**
   * This model searching with the shortlist that {@code config.shortlist()} names ({@link ShortlistFile#named}:
   * {@code run} is run runUri's), or this model when it names none.
   *
   * @throws UsageException naming the file when it is missing or malformed, and both vocabularies when the
   *     shortlist was built for another vocabulary than the model's
   */
  public TranslationModel withShortlist(TranslateConfig config, String runUri, Configuration hadoop) throws IOException {
    if (!config.shortlisted()) {
      return this;
    }
    org.apache.hadoop.fs.Path file = ShortlistFile.named(config.shortlist(), runUri);
    ShortlistFile read = ShortlistFile.read(file, hadoop);
    if (!read.vocabularySha256().equals(vocabulary.sha256())) {
      throw new UsageException("--shortlist (translate.shortlist) " + file + " was built for the vocabulary with SHA-256 "
          + read.vocabularySha256() + ", but checkpoint " + checkpoint + " of " + runUri + " uses the vocabulary with SHA-256 "
          + vocabulary.sha256() + ": build one for this run with sparknmt shortlist --run " + runUri);
    }
    return new TranslationModel(checkpoint, step, maxLength, graphBytes, vocabulary, read.shortlist());
  }

  /** The checkpoint's folder name, e.g. {@code step-00001000}; an ensemble's joined with {@code +}. */
  public String checkpoint() {
    return checkpoint;
  }

  public long step() {
    return step;
  }

  public BpeModel vocabulary() {
    return vocabulary;
  }

  /**
   * A translator of lines for one task; the graphs are restored on the first call in this JVM.
   *
   * @throws IllegalStateException when config names a shortlist and this model was not given it ({@link #withShortlist}), or the reverse
   */
  public SentenceTranslator sentenceTranslator(TranslateConfig config) {
    if (config.shortlisted() != (shortlist != null)) {
      throw new IllegalStateException("the search " + (config.shortlisted() ? "names shortlist " + config.shortlist()
          + " but the model was not given it" : "names no shortlist but the model has one") + ": see withShortlist");
    }
    return new SentenceTranslator(Translator.of(graphs(), TrainedModel.TOKENS).withShortlist(shortlist),
        new BpeEncoder(vocabulary), config, maxLength);
  }

  /** The threads this JVM's tasks search on ({@link #SEARCH_THREADS}). */
  public WorkspaceThreads searchThreads() {
    return SEARCH_THREADS;
  }

  private List<ComputationGraph> graphs() {
    List<ComputationGraph> restored = graphs;
    if (restored == null) {
      synchronized (this) {
        restored = graphs;
        if (restored == null) {
          List<ComputationGraph> read = new ArrayList<>();
          for (byte[] bytes : graphBytes) {
            try {
              read.add(ModelSerializer.restoreComputationGraph(new ByteArrayInputStream(bytes), false));
            } catch (IOException e) {
              throw new UncheckedIOException("cannot restore the model of checkpoint " + checkpoint, e);
            }
          }
          restored = List.copyOf(read);
          graphs = restored;
        }
      }
    }
    return restored;
  }
}
