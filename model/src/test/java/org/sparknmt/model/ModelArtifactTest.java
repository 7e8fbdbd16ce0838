package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.MultiDataSet;

/** Save and load keep configuration, parameters and updater state, and refuse another vocabulary. */
class ModelArtifactTest {
  private static final TransformerConfig CONFIG =
      new TransformerConfig(16, 2, 32, 1, 32, 0.0, 0.0, 0.1, false, true, true);

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
}
