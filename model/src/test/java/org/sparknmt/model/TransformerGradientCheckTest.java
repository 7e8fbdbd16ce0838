package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * Double-precision finite-difference check (DL4J's GradientCheckUtil) of every parameter of a whole
 * tiny encoder-decoder, with source and target padding, the causal mask and label smoothing.
 */
class TransformerGradientCheckTest {
  private static DataType previousType;

  @BeforeAll
  static void doublePrecision() {
    org.apache.logging.log4j.core.config.Configurator.setLevel("org.deeplearning4j.gradientcheck", org.apache.logging.log4j.Level.INFO);
    previousType = Nd4j.dataType();
    Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
  }

  @AfterAll
  static void restore() {
    Nd4j.setDefaultDataTypes(previousType, previousType);
  }

  @Test
  void postNormSharedEmbeddingsSinusoid() {
    check(true, false, false, 0.0);
  }

  /**
   * Every other option at once (pre-norm, separate embeddings, learned positions, dropout): each changes its own
   * part of the backward pass, so one check of all of them covers what a check of each would.
   */
  @Test
  @Tag("slow")
  void preNormSeparateEmbeddingsLearnedPositionsDropout() {
    check(false, true, true, 0.2);
  }

  private static void check(boolean share, boolean preNorm, boolean learned, double dropout) {
    TransformerConfig config = TestModels.minimal().dModel(8).dFf(12).maxLength(16).dropout(dropout)
        .attentionDropout(dropout).shareEmbeddings(share).preNorm(preNorm).learnedPositions(learned).build();
    int vocab = 9;
    ComputationGraph graph = TransformerFactory.create(config, vocab, new NoOp(), 42, DataType.DOUBLE);
    DataType t = DataType.DOUBLE;
    INDArray source = TinyBatches.ids(t, new int[][] {{3, 4, 5, 6, 2}, {7, 3, 2, 0, 0}, {8, 8, 4, 2, 0}});
    INDArray targetIn = TinyBatches.ids(t, new int[][] {{1, 6, 5, 4}, {1, 3, 0, 0}, {1, 4, 8, 0}});
    INDArray labels = TinyBatches.ids(t, new int[][] {{6, 5, 4, 2}, {3, 2, 0, 0}, {4, 8, 2, 0}});
    INDArray sourceMask = TinyBatches.mask(t, 5, 5, 3, 4);
    INDArray targetMask = TinyBatches.mask(t, 4, 4, 2, 3);
    boolean ok = GradientCheckUtil.checkGradients(new GradientCheckUtil.GraphConfig()
        .net(graph)
        .inputs(new INDArray[] {source, targetIn})
        .labels(new INDArray[] {labels})
        .inputMask(new INDArray[] {sourceMask, targetMask})
        .labelMask(new INDArray[] {targetMask})
        .epsilon(1e-6)
        .maxRelError(1e-5)
        .minAbsoluteError(1e-9)
        .print(GradientCheckUtil.PrintMode.FAILURES_ONLY)
        // the same dropout masks for every evaluation of the loss
        .callEachIter(g -> Nd4j.getRandom().setSeed(7)));
    assertTrue(ok, "gradient check failed, see the log for the parameter");
  }
}
