package org.sparknmt.model.nn;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.arrays.Buffers;

/**
 * Figure 1, the encoder-decoder Transformer, with an explicit backward pass: the Annotated
 * Transformer's {@code make_model} over {@link Params}. Not thread-safe: each forward pass keeps
 * what its backward pass needs.
 */
public final class Transformer {
  /** The parameter name of the shared source/target embedding and output projection. */
  public static final String SHARED_EMBEDDING = "embedding";

  private final TransformerConfig config;
  private final int vocabSize;
  private final Params params;
  private final Encoder encoder;
  private final Decoder decoder;
  private final Generator generator;

  public Transformer(TransformerConfig config, int vocabSize, Params params) {
    if (vocabSize <= 0) {
      throw new IllegalArgumentException("vocabulary size must be positive, got " + vocabSize);
    }
    this.config = config;
    this.vocabSize = vocabSize;
    this.params = params;
    String srcEmbedding;
    String tgtEmbedding;
    if (config.shareEmbeddings()) {
      srcEmbedding = params.declare(SHARED_EMBEDDING, Params.Init.EMBEDDING, vocabSize, config.dModel());
      tgtEmbedding = srcEmbedding;
    } else {
      srcEmbedding = params.declare("source.embedding", Params.Init.EMBEDDING, vocabSize, config.dModel());
      tgtEmbedding = params.declare("target.embedding", Params.Init.EMBEDDING, vocabSize, config.dModel());
    }
    this.encoder = new Encoder(params, "encoder", config, srcEmbedding);
    this.decoder = new Decoder(params, "decoder", config, tgtEmbedding);
    this.generator = new Generator(params, "generator", config.dModel(), vocabSize,
        config.shareEmbeddings() ? tgtEmbedding : null);
  }

  /** The parameter layout of a model of this size, without binding any values. */
  public static Params layout(TransformerConfig config, int vocabSize) {
    Params p = new Params();
    new Transformer(config, vocabSize, p);
    return p;
  }

  /** Encodes the source side: [size·t_src, d_model]. */
  public INDArray encode(int size, int[] source, INDArray sourceKeep, DataType type, boolean training) {
    return encoder.forward(source, size, encoderMask(size, source, sourceKeep, type), training);
  }

  /** The encoder self-attention's mask of size sources: their padding, [size·h, t_src, t_src]. */
  public AttentionMask encoderMask(int size, int[] source, INDArray sourceKeep, DataType type) {
    int ts = source.length / size;
    return AttentionMask.of(sourceKeep, size, ts, ts, config.heads(), false, type);
  }

  /** Decodes every target position at once (teacher forcing, or a whole prefix while searching): [size·t_tgt, d_model]. */
  public INDArray decode(int size, int[] targetIn, INDArray targetKeep, INDArray memory, INDArray sourceKeep,
      boolean training) {
    DataType type = memory.dataType();
    int tt = targetIn.length / size;
    int ts = (int) (memory.size(0) / size);
    AttentionMask self = AttentionMask.of(targetKeep, size, tt, tt, config.heads(), true, type);
    AttentionMask cross = AttentionMask.of(sourceKeep, size, tt, ts, config.heads(), false, type);
    return decoder.forward(targetIn, memory, size, self, cross, training);
  }

  /** The output distribution: log-probabilities [n, vocab] of decoder states [n, d_model]. */
  public INDArray logProbabilities(INDArray decoderStates) {
    return Generator.logSoftmax(logits(decoderStates));
  }

  /** The scores before the softmax, [n, vocab], of decoder states [n, d_model]. */
  public INDArray logits(INDArray decoderStates) {
    return generator.logits(decoderStates);
  }

  /** Section 3.4's output projection. */
  public Generator generator() {
    return generator;
  }

  /** Forward pass and loss (mean label-smoothed cross-entropy per non-padding target token). */
  public LabelSmoothedCrossEntropy.Result loss(TransformerBatch b, DataType type, boolean training, boolean withGradient) {
    INDArray weight = targetWeight(b, type);
    // [n, vocab] arrays are the largest of a step: free them now rather than when the GC runs
    INDArray logits = logits(b, type, training);
    LabelSmoothedCrossEntropy.Result r =
        LabelSmoothedCrossEntropy.compute(logits, b.labels(), weight, config.labelSmoothing(), withGradient);
    Buffers.free(logits);
    return r;
  }

  /**
   * Validation's measures of a batch from one forward pass at inference: the loss as {@link #loss} gives
   * it, and the non-padding target positions whose most probable token is the label.
   */
  public Validated validate(TransformerBatch b, DataType type) {
    INDArray weight = targetWeight(b, type);
    INDArray logits = logits(b, type, false);
    double loss = LabelSmoothedCrossEntropy.compute(logits, b.labels(), weight, config.labelSmoothing(), false).loss();
    int[] predicted = Nd4j.argMax(logits, 1).toIntVector();
    Buffers.free(logits);
    float[] keep = weight.reshape(weight.length()).toFloatVector();
    long correct = 0;
    for (int i = 0; i < predicted.length; i++) {
      if (predicted[i] == b.labels()[i] && keep[i] != 0) {
        correct++;
      }
    }
    return new Validated(loss, correct);
  }

  /** Validation's measures of a batch: the mean loss per target token and the tokens predicted right. */
  public record Validated(double loss, long correct) {}

  private INDArray logits(TransformerBatch b, DataType type, boolean training) {
    INDArray memory = encode(b.size(), b.source(), b.sourceKeep(), type, training);
    return generator.logits(decode(b.size(), b.targetIn(), b.targetKeep(), memory, b.sourceKeep(), training));
  }

  private static INDArray targetWeight(TransformerBatch b, DataType type) {
    return b.targetKeep() == null
        ? Nd4j.ones(type, b.targetIn().length, 1)
        : b.targetKeep().castTo(type).reshape(b.targetIn().length, 1);
  }

  /**
   * Backpropagates dL/d(logits) of the last {@link #loss} call into the bound gradient views (which it
   * adds to). Frees dLogits, the largest array of a step, once used.
   */
  public void backward(INDArray dLogits) {
    INDArray dStates = generator.backward(dLogits);
    Buffers.free(dLogits);
    INDArray dMemory = decoder.backward(dStates);
    encoder.backward(dMemory);
  }

  public TransformerConfig config() {
    return config;
  }

  public int vocabSize() {
    return vocabSize;
  }

  public Params params() {
    return params;
  }

  public Encoder encoder() {
    return encoder;
  }

  public Decoder decoder() {
    return decoder;
  }
}
