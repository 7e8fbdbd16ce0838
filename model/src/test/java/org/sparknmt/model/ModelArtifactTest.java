package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.MultiDataSet;
import org.sparknmt.model.nn.TransformerConfig;

/** Save and load keep configuration, parameters and updater state, and refuse another vocabulary or foreign entries. */
class ModelArtifactTest {
  private static final TransformerConfig CONFIG =
      TestModels.minimal().shareEmbeddings(false).preNorm(true).learnedPositions(true).build();

  @Test
  void roundTripKeepsEverythingAndTrainingContinuesIdentically() throws IOException {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, TransformerFactory.paperAdam(1e-3), 4,
        DataType.FLOAT);
    Random random = new Random(1);
    graph.fit(CopyTaskTest.batch(CopyTaskTest.sentences(random, 8)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(graph, "vocab-abc", bytes);

    ModelArtifact.Loaded loaded = ModelArtifact.read(new ByteArrayInputStream(bytes.toByteArray()), "vocab-abc", "mem");
    assertEquals(CONFIG, loaded.metadata().config());
    assertEquals(12, loaded.metadata().vocabSize());
    assertEquals(graph.numParams(), loaded.metadata().parameters());
    assertEquals(graph.params(), loaded.graph().params());
    assertEquals(graph.getUpdater().getStateViewArray(), loaded.graph().getUpdater().getStateViewArray());

    MultiDataSet next = CopyTaskTest.batch(CopyTaskTest.sentences(random, 8));
    graph.fit(next);
    loaded.graph().fit(next);
    assertEquals(graph.params(), loaded.graph().params(), "one more step from the same state gives the same result");
  }

  @Test
  void decodingReadsTheParametersWithoutTheTrainedUpdaterState() throws IOException {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, TransformerFactory.paperAdam(1e-3), 4,
        DataType.FLOAT);
    graph.fit(CopyTaskTest.batch(CopyTaskTest.sentences(new Random(1), 8)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(graph, "vocab-abc", bytes);

    ModelArtifact.Loaded loaded = ModelArtifact.readForDecoding(new ByteArrayInputStream(bytes.toByteArray()), "vocab-abc", "mem");
    assertEquals(CONFIG, loaded.metadata().config());
    assertEquals(graph.params(), loaded.graph().params());
    assertEquals(graph.output(CopyTaskTest.batch(CopyTaskTest.sentences(new Random(2), 4)).getFeatures())[0],
        loaded.graph().output(CopyTaskTest.batch(CopyTaskTest.sentences(new Random(2), 4)).getFeatures())[0]);
    assertEquals(0.0, loaded.graph().getUpdater().getStateViewArray().norm1Number().doubleValue(),
        "Adam's moments were not read: a fresh updater's are zero");
  }

  @Test
  void anotherVocabularyIsAClearError() throws IOException {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 12, 4);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(graph, "vocab-abc", bytes);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelArtifact.read(new ByteArrayInputStream(bytes.toByteArray()), "vocab-xyz", "run/model.zip"));
    assertTrue(e.getMessage().contains("run/model.zip") && e.getMessage().contains("vocab-abc")
        && e.getMessage().contains("vocab-xyz"), e.getMessage());
  }

  @Test
  void parameterCountIsTheTrueCount() {
    // d=16, d_ff=32, V=12, 1+1 layers, pre-LN, learned positions (max 32), separate embeddings and projection
    int d = 16;
    int ff = 32;
    int v = 12;
    long attention = 4L * (d * d + d);
    long ffn = (long) d * ff + ff + (long) ff * d + d;
    long norm = 2L * d;
    long encoderLayer = attention + ffn + 2 * norm;
    long decoderLayer = 2 * attention + ffn + 3 * norm;
    long expected = 2L * v * d + 2L * 32 * d + encoderLayer + decoderLayer + 2 * norm + ((long) d * v + v);
    assertEquals(expected, TransformerFactory.create(CONFIG, v, 4).numParams());
  }

  /** A serialized object that shows whether anything deserialized it. */
  static final class Tripwire implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) {
      throw new IllegalStateException("the tripwire was deserialized");
    }
  }

  @Test
  void aForeignEntryInTheGraphIsRefusedBeforeDl4jDeserializesIt() throws IOException {
    ByteArrayOutputStream tripwire = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(tripwire)) {
      out.writeObject(new Tripwire());
    }
    byte[] artifact = artifact();
    Map<String, byte[]> outer = unzip(new ByteArrayInputStream(artifact));
    Map<String, byte[]> graph = unzip(new ByteArrayInputStream(outer.get(ModelArtifact.GRAPH)));
    assertEquals(ModelArtifact.GRAPH_ENTRIES, graph.keySet().stream().toList(), "what DL4J writes for our graph");
    graph.put("preprocessor.bin", tripwire.toByteArray());
    outer.put(ModelArtifact.GRAPH, zip(graph));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelArtifact.read(new ByteArrayInputStream(zip(outer)), "vocab-abc", "run/model.zip"));
    assertEquals("run/model.zip!graph.zip: refusing entry 'preprocessor.bin': a model file is code-equivalent input and "
        + "this build reads only configuration.json, coefficients.bin, updaterState.bin from it; use checkpoints "
        + "written by sparknmt from a trusted source", e.getMessage());
  }

  @Test
  void aForeignEntryInTheArtifactIsRefused() throws IOException {
    Map<String, byte[]> outer = unzip(new ByteArrayInputStream(artifact()));
    outer.put("extra.bin", new byte[] {1});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelArtifact.read(new ByteArrayInputStream(zip(outer)), "vocab-abc", "run/model.zip"));
    assertTrue(e.getMessage().startsWith("run/model.zip: refusing entry 'extra.bin'"), e.getMessage());
  }

  @Test
  void anEntryThatInflatesBeyondItsModelIsRefusedBeforeItIsHeld() throws IOException {
    Map<String, byte[]> outer = unzip(new ByteArrayInputStream(artifact()));
    long parameters = new com.fasterxml.jackson.databind.ObjectMapper().readTree(outer.get(ModelArtifact.METADATA))
        .get("parameters").asLong();
    long max = parameters * 24 + (16 << 20);
    Map<String, byte[]> graph = unzip(new ByteArrayInputStream(outer.get(ModelArtifact.GRAPH)));
    graph.put(org.deeplearning4j.util.ModelSerializer.COEFFICIENTS_BIN, new byte[Math.toIntExact(max + 1)]);
    outer.put(ModelArtifact.GRAPH, zip(graph));
    byte[] small = zip(outer);
    assertTrue(small.length < max / 100, "deflated zeros: " + small.length + " bytes");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelArtifact.read(new ByteArrayInputStream(small), "vocab-abc", "run/model.zip"));
    assertEquals("run/model.zip!graph.zip: entry 'coefficients.bin' inflates to more than " + max
        + " bytes, more than its model can hold: a damaged or crafted file", e.getMessage());
  }

  private static byte[] artifact() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(TransformerFactory.create(CONFIG, 12, 4), "vocab-abc", bytes);
    return bytes.toByteArray();
  }

  private static Map<String, byte[]> unzip(InputStream in) throws IOException {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    ZipInputStream zip = new ZipInputStream(in);
    for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
      entries.put(e.getName(), zip.readAllBytes());
    }
    return entries;
  }

  private static byte[] zip(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(e.getKey()));
        zip.write(e.getValue());
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }
}
