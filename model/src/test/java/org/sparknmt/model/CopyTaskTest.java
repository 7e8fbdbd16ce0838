package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.decode.ControlTokens;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;
import org.sparknmt.model.decode.Translation;
import org.sparknmt.model.decode.Translator;
import org.sparknmt.model.nn.TransformerConfig;

/** The model learns to reverse random sequences, trained through ComputationGraph.fit on padded batches. */
public class CopyTaskTest {
  public static final ControlTokens TOKENS = new ControlTokens(0, 1, 2);
  public static final int VOCAB = 12;

  @Test
  @Tag("slow")
  void learnsToReverseWithExactMatch() {
    TransformerConfig config = TestModels.minimal().dModel(32).dFf(64).layers(2).labelSmoothing(0).build();
    ComputationGraph graph = TransformerFactory.create(config, VOCAB, TransformerFactory.paperAdam(3e-3), 1,
        DataType.FLOAT);
    Random random = new Random(5);
    int[][] test = sentences(random, 40);
    Translator translator = Translator.of(graph, TOKENS);
    DecodingOptions greedy = DecodingOptions.greedy().withMaxLength(1.0, 2);
    DecodingOptions beam = greedy.withBeamWidth(3).withLengthPenalty(new LengthPenalty.Gnmt(0.6));
    double greedyAccuracy = 0;
    double beamAccuracy = 0;
    int step = 0;
    // Training goes on until both decoders are exact: a model that greedy decodes perfectly can still
    // lose one of 40 sequences to beam search for a few hundred steps, and where that ends depends on
    // the BLAS kernels of the machine.
    while (step < 3000 && (greedyAccuracy < 1.0 || beamAccuracy < 1.0)) {
      graph.fit(batch(sentences(random, 32)));
      if (++step % 100 == 0) {
        greedyAccuracy = exactMatch(translator.beam(sources(test), greedy), test);
        beamAccuracy = greedyAccuracy < 1.0 ? 0 : exactMatch(translator.beam(sources(test), beam), test);
      }
    }
    System.out.printf("copy task: exact after %d steps%n", step);
    assertEquals(1.0, greedyAccuracy, "greedy exact match on held-out sequences");
    assertEquals(1.0, beamAccuracy, "beam search exact match");
  }

  public static int[][] sentences(Random random, int n) {
    int[][] s = new int[n][];
    for (int i = 0; i < n; i++) {
      s[i] = new int[3 + random.nextInt(6)];
      for (int t = 0; t < s[i].length; t++) {
        s[i][t] = 3 + random.nextInt(VOCAB - 3);
      }
    }
    return s;
  }

  static int[] reversed(int[] s) {
    int[] r = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      r[i] = s[s.length - 1 - i];
    }
    return r;
  }

  public static int[][] sources(int[][] sentences) {
    return Arrays.stream(sentences).map(s -> append(s, TOKENS.eos())).toArray(int[][]::new);
  }

  static double exactMatch(List<Translation> out, int[][] sentences) {
    int ok = 0;
    for (int i = 0; i < sentences.length; i++) {
      ok += Arrays.equals(out.get(i).tokens(), reversed(sentences[i])) ? 1 : 0;
    }
    return (double) ok / sentences.length;
  }

  /** The documented contract: ({source, targetIn}, {labels}, {sourceMask, targetMask}, {targetMask}). */
  public static MultiDataSet batch(int[][] sentences) {
    List<int[]> src = new ArrayList<>();
    List<int[]> in = new ArrayList<>();
    List<int[]> out = new ArrayList<>();
    for (int[] s : sentences) {
      int[] r = reversed(s);
      src.add(append(s, TOKENS.eos()));
      in.add(prepend(TOKENS.bos(), r));
      out.add(append(r, TOKENS.eos()));
    }
    INDArray[] source = padded(src);
    INDArray[] targetIn = padded(in);
    INDArray[] labels = padded(out);
    return new MultiDataSet(new INDArray[] {source[0], targetIn[0]}, new INDArray[] {labels[0]},
        new INDArray[] {source[1], targetIn[1]}, new INDArray[] {targetIn[1]});
  }

  /** ids [n, t_max] padded with PAD_ID, and the mask. */
  static INDArray[] padded(List<int[]> rows) {
    int t = rows.stream().mapToInt(r -> r.length).max().orElseThrow();
    INDArray ids = Nd4j.zeros(DataType.FLOAT, rows.size(), t).addi(TransformerFactory.PAD_ID);
    INDArray mask = Nd4j.zeros(DataType.FLOAT, rows.size(), t);
    for (int i = 0; i < rows.size(); i++) {
      for (int j = 0; j < rows.get(i).length; j++) {
        ids.putScalar(i, j, rows.get(i)[j]);
        mask.putScalar(i, j, 1);
      }
    }
    return new INDArray[] {ids, mask};
  }

  static int[] append(int[] s, int token) {
    int[] r = Arrays.copyOf(s, s.length + 1);
    r[s.length] = token;
    return r;
  }

  static int[] prepend(int token, int[] s) {
    int[] r = new int[s.length + 1];
    r[0] = token;
    System.arraycopy(s, 0, r, 1, s.length);
    return r;
  }
}
