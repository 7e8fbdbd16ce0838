package org.sparknmt.model;

import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.WorkspaceMode;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.IUpdater;
import org.sparknmt.model.dl4j.SourceTargetVertex;
import org.sparknmt.model.dl4j.TransformerLayer;
import org.sparknmt.model.dl4j.TransformerLayerImpl;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * Builds the Transformer as a DL4J {@link ComputationGraph} (the Annotated Transformer's
 * {@code make_model}): two inputs joined by a {@link SourceTargetVertex} into one
 * {@link TransformerLayer} that holds every parameter and computes the loss.
 *
 * <h2>Input contract</h2>
 * Train with {@code MultiDataSet({source, targetIn}, {labels}, {sourceMask, targetMask}, {targetMask})}:
 * <ul>
 *   <li>{@code source}: [batch, t_src] source token ids (floating point or int values), the
 *       sentence's subword ids then EOS, padded to t_src with {@link #PAD_ID}</li>
 *   <li>{@code targetIn}: [batch, t_tgt] decoder inputs: BOS, y_1 … y_{m−1} … padded with {@link #PAD_ID}</li>
 *   <li>{@code labels}: [batch, t_tgt] gold ids y_1 … y_m, EOS, padded with {@link #PAD_ID} (ids, not one-hot)</li>
 *   <li>{@code sourceMask} [batch, t_src], {@code targetMask} [batch, t_tgt]: 1.0 for a real token,
 *       0.0 for padding; give both or neither (neither means no padding). The label mask is the
 *       target mask; the loss covers exactly the positions where it is 1.</li>
 * </ul>
 * Batch size, t_src and t_tgt may change from batch to batch (up to {@code max_length}); nothing
 * is compiled per shape. The score is the label-smoothed cross-entropy per non-padding target token.
 */
public final class TransformerFactory {
  /** The padding id the prepare job writes; masked positions are never read, any valid id would do. */
  public static final int PAD_ID = 0;
  public static final String SOURCE = "source";
  public static final String TARGET_IN = "target_in";
  public static final String PAIR = "pair";
  public static final String TRANSFORMER = "transformer";

  private TransformerFactory() {}

  /** Adam(β1 = 0.9, β2 = 0.98, ε = 1e-9) as in Section 5.3; the learning rate is the trainer's to schedule. */
  public static IUpdater paperAdam(double learningRate) {
    return Adam.builder().learningRate(learningRate).beta1(0.9).beta2(0.98).epsilon(1e-9).build();
  }

  /** A float32 model with the paper's Adam at learning rate 1e-3. */
  public static ComputationGraph create(TransformerConfig config, int vocabSize, long seed) {
    return create(config, vocabSize, paperAdam(1e-3), seed, DataType.FLOAT);
  }

  public static ComputationGraph create(TransformerConfig config, int vocabSize, IUpdater updater, long seed,
      DataType dataType) {
    ComputationGraph graph = new ComputationGraph(configuration(config, vocabSize, updater, seed, dataType));
    graph.init();
    return graph;
  }

  public static ComputationGraphConfiguration configuration(TransformerConfig config, int vocabSize,
      IUpdater updater, long seed, DataType dataType) {
    return new NeuralNetConfiguration.Builder()
        .seed(seed)
        .dataType(dataType)
        .updater(updater)
        // the layer keeps its forward state between forward and backward, outside DL4J's workspaces
        .trainingWorkspaceMode(WorkspaceMode.NONE)
        .inferenceWorkspaceMode(WorkspaceMode.NONE)
        .graphBuilder()
        .addInputs(SOURCE, TARGET_IN)
        .addVertex(PAIR, new SourceTargetVertex(), SOURCE, TARGET_IN)
        .addLayer(TRANSFORMER, new TransformerLayer(config, vocabSize), PAIR)
        .setOutputs(TRANSFORMER)
        .build();
  }

  /** The model inside a graph built here, for decoding. */
  public static Transformer transformer(ComputationGraph graph) {
    return layer(graph).transformer();
  }

  public static TransformerLayer layerConfiguration(ComputationGraph graph) {
    return (TransformerLayer) graph.getLayer(TRANSFORMER).conf().getLayer();
  }

  private static TransformerLayerImpl layer(ComputationGraph graph) {
    if (!(graph.getLayer(TRANSFORMER) instanceof TransformerLayerImpl layer)) {
      throw new IllegalArgumentException("not a graph built by TransformerFactory: no layer '" + TRANSFORMER + "'");
    }
    return layer;
  }

  /**
   * A new model over the parameters of a graph built here (it shares them, it does not copy them), with
   * forward state of its own: for a thread of its own, or work beside the graph's training.
   */
  public static Transformer newTransformer(ComputationGraph graph) {
    TransformerLayer conf = layerConfiguration(graph);
    Params params = new Params();
    Transformer model = new Transformer(conf.transformerConfig(), conf.vocabSize(), params);
    params.bindValues(params.split(graph.getLayer(TRANSFORMER).params()));
    return model;
  }
}
