package org.sparknmt.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Every file of the reference attention vectors (PyTorch 1.13, float64), reproduced in float32. */
class AttentionVectorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Path folder() {
    String dir = System.getProperty("nmt.vectors.attention");
    if (dir == null || dir.isBlank()) {
      dir = System.getenv("NMT_VECTORS_ATTENTION");
    }
    return Path.of(dir == null || dir.isBlank() ? "../testvectors/attention" : dir);
  }

  @TestFactory
  Stream<DynamicTest> everyVectorFile() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(folder())) {
      files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no vector files in " + folder().toAbsolutePath());
    return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
  }

  private static void check(Path file) throws IOException {
    JsonNode v = JSON.readTree(file.toFile());
    switch (v.get("kind").asText()) {
      case "multi_head_attention" -> checkAttention(v);
      case "positional_encoding" -> checkPositional(v);
      default -> fail(file + ": unknown kind " + v.get("kind"));
    }
  }

  private static void checkPositional(JsonNode v) {
    int maxLen = v.get("max_len").asInt();
    int d = v.get("d_model").asInt();
    INDArray expected = array(v.get("encoding"));
    INDArray actual = PositionalEncoding.sinusoid(maxLen, d, DataType.FLOAT);
    assertEquals(0, expected.castTo(DataType.FLOAT).sub(actual).amaxNumber().doubleValue(), 1e-5);
  }

  private static void checkAttention(JsonNode v) {
    int h = v.get("num_heads").asInt();
    int d = v.get("d_model").asInt();
    INDArray query = array(v.get("query"));
    INDArray keyValue = array(v.get("key_value"));
    int batch = (int) query.size(0);
    int tq = (int) query.size(1);
    int tk = (int) keyValue.size(1);
    Params params = new Params();
    MultiHeadAttention mha = new MultiHeadAttention(params, "mha", d, h, 0.0);
    Map<String, INDArray> views = params.split(Nd4j.create(DataType.FLOAT, 1, params.size()));
    for (String p : new String[] {"q", "k", "v", "o"}) {
      views.get("mha." + p + ".w").assign(array(v.get("w_" + p)));
      views.get("mha." + p + ".b").assign(array(v.get("b_" + p)));
    }
    params.bindValues(views);
    JsonNode padding = v.get("key_padding_mask");
    INDArray keep = padding == null || padding.isNull() ? null : array(padding).rsub(1.0);
    AttentionMask mask = AttentionMask.of(keep, batch, tq, tk, h, v.get("causal").asBoolean(), DataType.FLOAT);
    INDArray out = mha.forward(query.reshape((long) batch * tq, d), keyValue.reshape((long) batch * tk, d), batch,
        mask, false);
    assertRelativeError(array(v.get("output")), out.reshape(batch, tq, d), "output");
    INDArray weights = mha.weights();
    INDArray expectedWeights = array(v.get("attention_weights"));
    assertRelativeError(expectedWeights, weights, "attention_weights");
    // masked entries must be exactly zero, not just small
    INDArray maskedActual = weights.mul(expectedWeights.eq(0).castTo(DataType.FLOAT));
    assertEquals(0.0, maskedActual.amaxNumber().doubleValue(), 0.0, "masked weights are exactly 0");
  }

  static void assertRelativeError(INDArray reference, INDArray actual, String what) {
    INDArray ref = reference.castTo(DataType.DOUBLE);
    double err = ref.sub(actual.castTo(DataType.DOUBLE)).norm2Number().doubleValue() / ref.norm2Number().doubleValue();
    assertTrue(err < 1e-5, what + ": relative error " + err);
  }

  /** A nested JSON list of numbers as a float32 array of the same shape. */
  static INDArray array(JsonNode node) {
    List<Long> shape = new ArrayList<>();
    JsonNode n = node;
    while (n.isArray()) {
      shape.add((long) n.size());
      n = n.get(0);
    }
    List<Double> values = new ArrayList<>();
    flatten(node, values);
    double[] flat = values.stream().mapToDouble(Double::doubleValue).toArray();
    long[] s = shape.stream().mapToLong(Long::longValue).toArray();
    return Nd4j.create(flat, s, DataType.DOUBLE).castTo(DataType.FLOAT);
  }

  private static void flatten(JsonNode node, List<Double> out) {
    if (node.isArray()) {
      node.forEach(c -> flatten(c, out));
    } else {
      out.add(node.isBoolean() ? (node.asBoolean() ? 1.0 : 0.0) : node.asDouble());
    }
  }
}
