package org.sparknmt.model.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.TestModels;

/**
 * Central finite differences, in double precision, of every parameter entry and every input entry of
 * each concept on its own: the loss is Σ output ⊙ R for a fixed random R (or the module's own loss).
 */
class ConceptGradientTest {
  private static final double EPS = 1e-6;
  private static DataType previous;
  private static final int BATCH = 2;
  private static final int D = 8;
  private static final int HEADS = 2;

  @BeforeAll
  static void doublePrecision() {
    previous = Nd4j.dataType();
    Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
    Nd4j.getRandom().setSeed(11);
  }

  @AfterAll
  static void restore() {
    Nd4j.setDefaultDataTypes(previous, previous);
  }

  /** Binds fresh random values (and zero gradients) to everything declared in p. */
  private static void bind(Params p) {
    Map<String, INDArray> values = p.split(Nd4j.rand(DataType.DOUBLE, 1, p.size()).subi(0.5));
    p.bindValues(values);
    p.bindGradients(p.split(Nd4j.zeros(DataType.DOUBLE, 1, p.size())));
  }

  /**
   * @param loss the scalar loss of an input (runs a forward pass)
   * @param backward after loss(input): accumulates parameter gradients and returns dL/d(input)
   */
  private static void check(String what, Params p, INDArray input, ToDoubleFunction<INDArray> loss,
      Function<INDArray, INDArray> backward) {
    loss.applyAsDouble(input);
    for (INDArray g : p.split(Nd4j.zeros(DataType.DOUBLE, 1, p.size())).values()) {
      g.assign(0);
    }
    Map<String, INDArray> grads = p.split(Nd4j.zeros(DataType.DOUBLE, 1, p.size()));
    p.bindGradients(grads);
    INDArray dInput = backward.apply(input);
    for (Params.Entry e : p.layout().values()) {
      INDArray value = p.value(e.name()).reshape(e.length());
      INDArray grad = grads.get(e.name()).reshape(e.length());
      for (int i = 0; i < e.length(); i++) {
        assertClose(what + " " + e.name() + "[" + i + "]", numeric(value, i, () -> loss.applyAsDouble(input)),
            grad.getDouble(i));
      }
    }
    if (dInput != null) {
      INDArray flat = input.reshape(input.length());
      INDArray dFlat = dInput.reshape(dInput.length());
      for (int i = 0; i < input.length(); i++) {
        assertClose(what + " input[" + i + "]", numeric(flat, i, () -> loss.applyAsDouble(input)), dFlat.getDouble(i));
      }
    }
  }

  private static double numeric(INDArray vector, int i, java.util.function.DoubleSupplier loss) {
    double original = vector.getDouble(i);
    vector.putScalar(i, original + EPS);
    double plus = loss.getAsDouble();
    vector.putScalar(i, original - EPS);
    double minus = loss.getAsDouble();
    vector.putScalar(i, original);
    return (plus - minus) / (2 * EPS);
  }

  private static void assertClose(String what, double numeric, double analytic) {
    double scale = Math.max(Math.abs(numeric), Math.abs(analytic));
    assertTrue(Math.abs(numeric - analytic) <= 1e-7 || Math.abs(numeric - analytic) / scale < 1e-5,
        what + ": numeric " + numeric + " analytic " + analytic);
  }

  private static INDArray keep(int t, int... lengths) {
    INDArray m = Nd4j.zeros(DataType.DOUBLE, lengths.length, t);
    for (int i = 0; i < lengths.length; i++) {
      for (int j = 0; j < lengths[i]; j++) {
        m.putScalar(i, j, 1);
      }
    }
    return m;
  }

  @Test
  void multiHeadSelfAttentionWithPaddingAndCausalMask() {
    Params p = new Params();
    MultiHeadAttention mha = new MultiHeadAttention(p, "mha", D, HEADS, 0.0);
    bind(p);
    AttentionMask mask = AttentionMask.of(keep(4, 4, 3), BATCH, 4, 4, HEADS, true, DataType.DOUBLE);
    INDArray r = Nd4j.rand(DataType.DOUBLE, BATCH * 4, D);
    check("self-attention", p, Nd4j.rand(DataType.DOUBLE, BATCH * 4, D),
        x -> mha.forward(x, x, BATCH, mask, false).mul(r).sumNumber().doubleValue(),
        x -> {
          MultiHeadAttention.Gradients g = mha.backward(r);
          return g.dQuery().add(g.dKeyValue());
        });
  }

  @Test
  void multiHeadCrossAttentionGradientReachesTheMemory() {
    Params p = new Params();
    MultiHeadAttention mha = new MultiHeadAttention(p, "mha", D, HEADS, 0.0);
    bind(p);
    INDArray query = Nd4j.rand(DataType.DOUBLE, BATCH * 3, D);
    AttentionMask mask = AttentionMask.of(keep(5, 5, 2), BATCH, 3, 5, HEADS, false, DataType.DOUBLE);
    INDArray r = Nd4j.rand(DataType.DOUBLE, BATCH * 3, D);
    check("cross-attention", p, Nd4j.rand(DataType.DOUBLE, BATCH * 5, D),
        memory -> mha.forward(query, memory, BATCH, mask, false).mul(r).sumNumber().doubleValue(),
        memory -> mha.backward(r).dKeyValue());
  }

  @Test
  void layerNorm() {
    Params p = new Params();
    LayerNorm norm = new LayerNorm(p, "ln", D);
    bind(p);
    INDArray r = Nd4j.rand(DataType.DOUBLE, 5, D);
    check("layer norm", p, Nd4j.rand(DataType.DOUBLE, 5, D), x -> norm.forward(x).mul(r).sumNumber().doubleValue(),
        x -> norm.backward(r));
  }

  @Test
  void feedForward() {
    Params p = new Params();
    PositionwiseFeedForward ffn = new PositionwiseFeedForward(p, "ffn", D, 12, 0.0);
    bind(p);
    INDArray r = Nd4j.rand(DataType.DOUBLE, 5, D);
    check("ffn", p, Nd4j.rand(DataType.DOUBLE, 5, D), x -> ffn.forward(x, false).mul(r).sumNumber().doubleValue(),
        x -> ffn.backward(r));
  }

  @ParameterizedTest(name = "preNorm={0}")
  @ValueSource(booleans = {false, true})
  void decoderLayerWithItsThreeSublayers(boolean preNorm) {
    TransformerConfig c = TestModels.minimal().dModel(D).heads(HEADS).dFf(12).maxLength(16).labelSmoothing(0)
        .preNorm(preNorm).build();
    Params p = new Params();
    DecoderLayer layer = new DecoderLayer(p, "dec", c);
    bind(p);
    INDArray memory = Nd4j.rand(DataType.DOUBLE, BATCH * 4, D);
    AttentionMask self = AttentionMask.of(keep(3, 3, 2), BATCH, 3, 3, HEADS, true, DataType.DOUBLE);
    AttentionMask cross = AttentionMask.of(keep(4, 4, 3), BATCH, 3, 4, HEADS, false, DataType.DOUBLE);
    INDArray r = Nd4j.rand(DataType.DOUBLE, BATCH * 3, D);
    check("decoder layer", p, Nd4j.rand(DataType.DOUBLE, BATCH * 3, D),
        x -> layer.forward(x, memory, BATCH, self, cross, false).mul(r).sumNumber().doubleValue(),
        x -> layer.backward(r));
  }

  @Test
  void encoderWithEmbeddingsRepeatedIdsAndLearnedPositions() {
    TransformerConfig c = TestModels.minimal().dModel(D).heads(HEADS).dFf(12).maxLength(16).labelSmoothing(0)
        .learnedPositions(true).build();
    Params p = new Params();
    String embedding = p.declare("emb", Params.Init.EMBEDDING, 7, D);
    Encoder encoder = new Encoder(p, "enc", c, embedding);
    bind(p);
    int[] ids = {3, 3, 5, 1, 6, 3, 2, 2};
    AttentionMask mask = AttentionMask.of(keep(4, 4, 3), BATCH, 4, 4, HEADS, false, DataType.DOUBLE);
    INDArray r = Nd4j.rand(DataType.DOUBLE, BATCH * 4, D);
    check("encoder", p, Nd4j.zeros(DataType.DOUBLE, 1),
        unused -> encoder.forward(ids, BATCH, mask, false).mul(r).sumNumber().doubleValue(),
        unused -> {
          encoder.backward(r);
          return null;
        });
  }

  @ParameterizedTest(name = "shared={0}")
  @ValueSource(booleans = {false, true})
  void generatorAndLabelSmoothedLoss(boolean shared) {
    Params p = new Params();
    String embedding = shared ? p.declare("emb", Params.Init.EMBEDDING, 7, D) : null;
    Generator generator = new Generator(p, "gen", D, 7, embedding);
    bind(p);
    int[] gold = {1, 4, 4, 0, 6};
    INDArray weight = Nd4j.createFromArray(1.0, 1.0, 0.0, 1.0, 1.0).reshape(5, 1);
    check("generator+loss", p, Nd4j.rand(DataType.DOUBLE, 5, D),
        x -> LabelSmoothedCrossEntropy.compute(generator.logits(x), gold, weight, 0.1, false).loss(),
        x -> generator.backward(
            LabelSmoothedCrossEntropy.compute(generator.logits(x), gold, weight, 0.1, true).dLogits()));
  }
}
