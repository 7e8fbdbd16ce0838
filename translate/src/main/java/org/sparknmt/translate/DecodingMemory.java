package org.sparknmt.translate;

import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * What a JVM that translates or evaluates needs, from the model's size, the ensemble, the batch, the beam
 * and the longest source: the heap for Spark and for reading the checkpoints, and ND4J's off-heap memory for
 * the parameters and each concurrent search's two workspaces (docs/operations.md, Memory). Every
 * coefficient is measured or counted from the arrays the search allocates.
 *
 * @param parameters one model's parameter count
 * @param models the checkpoints searched together (an ensemble; 1 otherwise)
 * @param searchBytes one search thread's workspace for the encoding and the decoder's caches
 * @param stepBytes one search thread's workspace for an encoder layer's or a decoding step's temporaries
 */
public record DecodingMemory(long parameters, int models, long searchBytes, long stepBytes) {
  /**
   * The heap besides the checkpoints: Spark's driver and local executor in one JVM, the batches' text and
   * hypotheses. A translate of the Multi30k validation set kept about 100 MiB live (after a collection);
   * G1 fills whatever it is given before collecting.
   */
  static final long BASE_HEAP = 256L << 20;
  /**
   * Heap bytes a parameter takes while a checkpoint is read and broadcast: the artifact's graph entry
   * (the parameters and, deflated, Adam's moments, about 11 bytes), the parameters inflated and rebuilt
   * into DL4J's zip (8), the graph serialized for the broadcast and its blocks (8), and room for a copy.
   */
  static final int HEAP_BYTES_PER_PARAMETER = 32;
  /**
   * Floats the search's workspace holds per source token, decoder layer and d_model besides the stored
   * keys and values (2): the cross-attention's projections and their copies split into heads. Fitted to
   * the workspaces of the Multi30k recipe's model at beam 4 and batch 128 (291 and 360 MiB for sources of
   * up to 34 and 43 subwords: the formula gives 1.02x both).
   */
  static final int CROSS_PER_LAYER_WIDTH = 8;
  /**
   * Floats an encoder layer's temporaries hold per source token: per d_model (queries, keys, values, their
   * heads' copies, the attention's output, residuals, norms) and per d_ff (the hidden layer before and
   * after its activation). Fitted as above: step workspaces of 98 and 124 MiB, the formula 1.03x both.
   */
  static final int ENCODER_PER_D_MODEL = 14;
  static final int ENCODER_PER_D_FF = 2;
  /**
   * A JVM's own off-heap memory (metaspace, code cache, threads, GC structures) and ND4J's native libraries:
   * 250-400 MiB measured (TrainBench, the quickstart's job); bench-translate's rows compare the plan with it.
   */
  static final long JVM_AND_LIBRARIES = 512L << 20;
  /** Floats a decoding step holds per hypothesis and vocabulary entry: logits, log-probabilities, scores. */
  static final int STEP_PER_VOCAB = 3;
  /** The stored keys' positions are rounded up to whole vectors of this many floats (VectorMath.padded). */
  static final int VECTOR_FLOATS = 16;

  public DecodingMemory {
    if (parameters <= 0 || models <= 0 || searchBytes <= 0 || stepBytes <= 0) {
      throw new IllegalArgumentException("a decoding memory plan needs positive sizes");
    }
  }

  /**
   * The plan for {@code models} models of this configuration and vocabulary searching batches of {@code
   * batch} sources of up to {@code sourceLength} subwords with {@code beam} hypotheses each, outputs
   * stopping at {@code maxLenA} x source length + {@code maxLenB} and at model.max_length.
   */
  public static DecodingMemory of(TransformerConfig model, int vocabSize, int models, int batch, int beam,
      int sourceLength, double maxLenA, int maxLenB) {
    if (models <= 0 || batch <= 0 || beam <= 0 || sourceLength <= 0) {
      throw new IllegalArgumentException("checkpoints, translate.batch_size, translate.beam and the source length must be"
          + " positive to size memory, got " + models + ", " + batch + ", " + beam + ", " + sourceLength);
    }
    long parameters = Transformer.layout(model, vocabSize).size();
    int source = Math.min(sourceLength + 1, model.maxLength());
    int outputs = (int) Math.min(model.maxLength(), Math.floor(maxLenA * sourceLength) + maxLenB);
    long hypotheses = (long) batch * beam;
    long layerWidth = (long) model.layers() * model.dModel();
    // each decoder layer's self-attention keys (stored transposed, positions padded) and values for every
    // hypothesis and output position, each cross-attention's source side, the encoder's output
    long cache = layerWidth * (hypotheses * (padded(outputs) + outputs) + (long) batch * CROSS_PER_LAYER_WIDTH * source)
        + (long) batch * source * model.dModel();
    long encoderLayer = (long) batch * source
        * (ENCODER_PER_D_MODEL * model.dModel() + ENCODER_PER_D_FF * model.dFf() + 2L * model.heads() * source);
    // the models encode one after another, each layer in the step's workspace; a step keeps every model's logits
    long step = Math.max(encoderLayer, models * hypotheses * STEP_PER_VOCAB * vocabSize);
    return new DecodingMemory(parameters, models, workspace(models * cache), workspace(step));
  }

  /** The heap, in MiB, of a local-mode JVM or a driver (SPARKNMT_DRIVER_MEMORY, --driver-memory). */
  public long heapMib() {
    return mib(BASE_HEAP + (long) models * HEAP_BYTES_PER_PARAMETER * parameters);
  }

  /** ND4J's off-heap need, in MiB, of a JVM running {@code tasks} searches at once (SPARKNMT_NATIVE_MEMORY): the parameters and each search's workspaces. */
  public long nativeMib(int tasks) {
    return mib(JVM_AND_LIBRARIES + (long) models * Float.BYTES * parameters + tasks * (searchBytes + stepBytes));
  }

  /** The whole process, in MiB: heap and native. */
  public long processMib(int tasks) {
    return heapMib() + nativeMib(tasks);
  }

  private static long padded(int positions) {
    return (positions + VECTOR_FLOATS - 1) / VECTOR_FLOATS * VECTOR_FLOATS;
  }

  /** A search's workspaces are sized exactly by their first, largest pass (PassWorkspace). */
  private static long workspace(long floats) {
    return Float.BYTES * floats;
  }

  private static long mib(long bytes) {
    return (bytes + (1L << 20) - 1) >> 20;
  }
}
