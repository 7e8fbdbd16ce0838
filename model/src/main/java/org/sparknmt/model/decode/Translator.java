package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.nn.DecoderLayer;
import org.sparknmt.model.nn.EncoderLayer;
import org.sparknmt.model.nn.Transformer;

/**
 * Translates batches of token-id sentences with a trained graph: greedy search, beam search, and
 * the attention maps of one sentence pair. Sources are id arrays ending with EOS, without padding.
 * A translator reads the graph's parameters (it shares them, it does not copy them) but keeps its own
 * forward state, so one translator per thread.
 */
public final class Translator {
  private final List<Transformer> models;
  private final Transformer model;
  private final ControlTokens tokens;
  private final DataType type;
  private final Shortlist shortlist;

  Translator(Transformer model, ControlTokens tokens, DataType type) {
    this(List.of(model), tokens, type);
  }

  /** An ensemble's translator: searches average the models' log-probabilities; alignments come from the first. */
  Translator(List<Transformer> models, ControlTokens tokens, DataType type) {
    this(models, tokens, type, null);
  }

  private Translator(List<Transformer> models, ControlTokens tokens, DataType type, Shortlist shortlist) {
    requireVectorModule();
    this.models = List.copyOf(models);
    this.model = models.get(0);
    this.tokens = tokens;
    this.type = type;
    this.shortlist = shortlist;
  }

  /**
   * This translator with its searches (beam, n-best, sampling) scoring only a shortlist's candidates for each
   * batch ({@link Shortlist#candidates}); null: every token. (A search fails when the shortlist is of a
   * vocabulary of another size.)
   */
  public Translator withShortlist(Shortlist shortlist) {
    return new Translator(models, tokens, type, shortlist);
  }

  /**
   * Fails with what to do when this JVM runs without the Vector API's module, which the search's loops
   * use ({@code VectorMath}); they would otherwise fail at their first step with a NoClassDefFoundError
   * naming only the missing class. (Not in VectorMath itself: loading that class is what fails.)
   */
  static void requireVectorModule() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      throw new IllegalStateException("translation needs the JVM option --add-modules=jdk.incubator.vector"
          + " (scripts/sparknmt passes it; with a spark-submit of your own, add it to spark.driver.extraJavaOptions"
          + " and spark.executor.extraJavaOptions)");
    }
  }

  /** A translator over the parameters of a graph built by {@link TransformerFactory}. */
  public static Translator of(ComputationGraph graph, ControlTokens tokens) {
    return of(List.of(graph), tokens);
  }

  /**
   * A translator of an ensemble of graphs built by {@link TransformerFactory} (one graph: that graph's): each
   * search step's distribution is the mean of their log-probabilities ({@link EnsembleLogits}); alignments
   * and attention maps are the first graph's. The graphs must share a vocabulary.
   */
  public static Translator of(List<ComputationGraph> graphs, ControlTokens tokens) {
    return new Translator(graphs.stream().map(TransformerFactory::newTransformer).toList(), tokens,
        graphs.get(0).getLayer(TransformerFactory.TRANSFORMER).params().dataType());
  }

  /** The best translation of each source ({@link DecodingOptions#greedy}: the most probable token at every step). */
  public List<Translation> beam(int[][] sources, DecodingOptions options) {
    return new BeamSearch(models, tokens, shortlist).search(sources, options, type);
  }

  /**
   * The n best finished hypotheses of each source's beam search, best first (fewer when fewer finished). The
   * outputs of source i start with the tokens prefixes[i] (without BOS), forced whatever their probability and
   * scored with it (prefixes null, or a null or empty prefix: none); the search continues from there.
   */
  public List<List<Translation>> nbest(int[][] sources, int[][] prefixes, DecodingOptions options, int n) {
    return new BeamSearch(models, tokens, shortlist).nbest(sources, prefixes, options, n, type);
  }

  /**
   * One sampled output per source ({@link Sampling}), source i starting with prefixes[i] (as in {@link #nbest})
   * and drawing from its own random stream seeded with seeds[i] ({@link Sampling#sentenceSeed}), so its sample
   * does not depend on the batch it is drawn in. A sample is one hypothesis with its summed log-probability:
   * of the options, only the length limit applies.
   */
  public List<Translation> sample(int[][] sources, int[][] prefixes, DecodingOptions options, Sampling sampling,
      long[] seeds) {
    DecodingOptions oneHypothesis = DecodingOptions.greedy().withMaxLength(options.maxLengthA(), options.maxLengthB());
    return new BeamSearch(models, tokens, shortlist).sample(sources, prefixes, oneHypothesis, sampling, seeds, type);
  }

  /** The most tokens a target prefix may have: the model's positions less BOS and EOS. */
  public int maxPrefixLength() {
    return Beam.maxPrefixLength(models.stream().mapToInt(m -> m.config().maxLength()).min().getAsInt());
  }

  /**
   * The hard alignment of each output (without BOS and EOS) to its source: for each output token, the source
   * position it attends to most ({@link CrossAttentionAlignment}), or −1 for a source of EOS alone.
   */
  public int[][] alignments(int[][] sources, int[][] outputs) {
    return CrossAttentionAlignment.of(model, tokens, type, sources, outputs);
  }

  /** The attention weights of every layer and head for a source and its output (without BOS/EOS), teacher-forced. */
  public AttentionMaps attention(int[] source, int[] output) {
    SourceBatch src = SourceBatch.of(new int[][] {source}, tokens.pad(), type);
    int[] targetIn = new int[output.length + 1];
    targetIn[0] = tokens.bos();
    System.arraycopy(output, 0, targetIn, 1, output.length);
    INDArray memory = model.encode(1, src.ids(), src.keep(), type, false);
    model.decode(1, targetIn, null, memory, src.keep(), false);
    List<INDArray> encoderSelf = new ArrayList<>();
    for (EncoderLayer layer : model.encoder().layers()) {
      encoderSelf.add(first(layer.selfAttention().weights()));
    }
    List<INDArray> decoderSelf = new ArrayList<>();
    List<INDArray> cross = new ArrayList<>();
    for (DecoderLayer layer : model.decoder().layers()) {
      decoderSelf.add(first(layer.selfAttention().weights()));
      cross.add(first(layer.crossAttention().weights()));
    }
    return new AttentionMaps(encoderSelf, decoderSelf, cross);
  }

  /** [1, heads, t_q, t_k] -> [heads, t_q, t_k]. */
  private static INDArray first(INDArray weights) {
    return weights.get(NDArrayIndex.point(0), NDArrayIndex.all(), NDArrayIndex.all(), NDArrayIndex.all()).dup();
  }
}
