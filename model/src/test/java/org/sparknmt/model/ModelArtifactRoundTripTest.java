package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;

/** The artifact restores the graph itself, not only its metadata: DL4J's JSON must keep the layer's settings. */
class ModelArtifactRoundTripTest {
  private static final TransformerConfig CONFIG = new TransformerConfig(16, 2, 32, 1, 32, 0.1, 0.0, 0.1, false, true, false);

  @Test
  void graphConfigurationAndParametersSurvive() throws IOException {
    ComputationGraph graph = TransformerFactory.create(CONFIG, 50, 3);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(graph, "hash", bytes);

    ModelArtifact.Loaded loaded = ModelArtifact.read(new ByteArrayInputStream(bytes.toByteArray()), "hash", "test");

    assertEquals(CONFIG, TransformerFactory.layerConfiguration(loaded.graph()).transformerConfig());
    assertEquals(50, TransformerFactory.layerConfiguration(loaded.graph()).vocabSize());
    assertArrayEquals(graph.params().data().asFloat(), loaded.graph().params().data().asFloat());
  }

  @Test
  void anotherVocabularyIsAClearError() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ModelArtifact.write(TransformerFactory.create(CONFIG, 50, 3), "trained-with", bytes);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelArtifact.read(new ByteArrayInputStream(bytes.toByteArray()), "other", "model.zip"));
    assertTrue(e.getMessage().contains("trained-with") && e.getMessage().contains("other"), e.getMessage());
  }
}
