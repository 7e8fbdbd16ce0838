package org.sparknmt.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.sparknmt.model.dl4j.TransformerLayer;

/**
 * One file holding a trained model: the Transformer's configuration, the vocabulary size and hash
 * it was trained with, and DL4J's graph (configuration, parameters and updater state). A zip with
 * two entries, {@value #METADATA} and {@value #GRAPH}, written to and read from streams so that any
 * Hadoop file system can hold it.
 */
public final class ModelArtifact {
  public static final String METADATA = "sparknmt-model.json";
  public static final String GRAPH = "graph.zip";
  public static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the artifact says about its model. */
  public record Metadata(int format, TransformerConfig config, int vocabSize, String vocabularyHash, long parameters) {}

  private ModelArtifact() {}

  public static void write(ComputationGraph graph, String vocabularyHash, OutputStream out) throws IOException {
    TransformerLayer layer = TransformerFactory.layerConfiguration(graph);
    Metadata metadata = new Metadata(FORMAT, layer.transformerConfig(), layer.vocabSize(), vocabularyHash,
        graph.numParams());
    ByteArrayOutputStream graphBytes = new ByteArrayOutputStream();
    ModelSerializer.writeModel(graph, graphBytes, true);
    ZipOutputStream zip = new ZipOutputStream(out);
    zip.putNextEntry(new ZipEntry(METADATA));
    zip.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(metadata));
    zip.closeEntry();
    zip.putNextEntry(new ZipEntry(GRAPH));
    graphBytes.writeTo(zip);
    zip.closeEntry();
    zip.finish();
  }

  /** A model and what its artifact says about it. */
  public record Loaded(Metadata metadata, ComputationGraph graph) {}

  /**
   * Reads a model, with its updater state, and checks that it was trained with the expected vocabulary.
   *
   * @param source names the artifact in error messages
   * @throws IllegalArgumentException when the artifact is not a sparknmt model or its vocabulary hash differs
   */
  public static Loaded read(InputStream in, String expectedVocabularyHash, String source) throws IOException {
    Metadata metadata = null;
    byte[] graphBytes = null;
    ZipInputStream zip = new ZipInputStream(in);
    for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
      if (e.getName().equals(METADATA)) {
        metadata = JSON.readValue(zip.readAllBytes(), Metadata.class);
      } else if (e.getName().equals(GRAPH)) {
        graphBytes = zip.readAllBytes();
      }
    }
    if (metadata == null || graphBytes == null) {
      throw new IllegalArgumentException(source + ": not a sparknmt model artifact (needs entries " + METADATA
          + " and " + GRAPH + ")");
    }
    if (metadata.format() != FORMAT) {
      throw new IllegalArgumentException(source + ": artifact format " + metadata.format() + ", this build reads "
          + FORMAT);
    }
    if (!metadata.vocabularyHash().equals(expectedVocabularyHash)) {
      throw new IllegalArgumentException(source + ": the model was trained with vocabulary " + metadata.vocabularyHash()
          + ", but the vocabulary given has hash " + expectedVocabularyHash + "; use the run's own vocabulary");
    }
    ComputationGraph graph = ModelSerializer.restoreComputationGraph(new ByteArrayInputStream(graphBytes), true);
    return new Loaded(metadata, graph);
  }
}
