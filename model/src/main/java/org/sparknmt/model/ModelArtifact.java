package org.sparknmt.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.util.ModelSerializer;
import org.sparknmt.model.dl4j.TransformerLayer;
import org.sparknmt.model.nn.TransformerConfig;

/**
 * One file holding a trained model: the Transformer's configuration, the vocabulary size and hash
 * it was trained with, and DL4J's graph (configuration, parameters and updater state). A zip with
 * two entries, {@value #METADATA} and {@value #GRAPH}, written to and read from streams so that any
 * Hadoop file system can hold it.
 *
 * <p>A model file is code-equivalent input: DL4J's {@link ModelSerializer} reads some entries
 * (a {@code preprocessor.bin}, a normalizer) with Java deserialization, which can run code of any
 * class on the classpath. So {@link #read} takes only the entries this class writes, by name, and
 * hands DL4J a graph zip rebuilt from those entries alone; anything else is refused before DL4J
 * sees a byte.
 */
public final class ModelArtifact {
  public static final String METADATA = "sparknmt-model.json";
  public static final String GRAPH = "graph.zip";
  public static final int FORMAT = 1;
  /** What {@link ModelSerializer#writeModel} writes for a graph with its updater: nothing it reads as Java objects. */
  static final List<String> GRAPH_ENTRIES =
      List.of(ModelSerializer.CONFIGURATION_JSON, ModelSerializer.COEFFICIENTS_BIN, ModelSerializer.UPDATER_BIN);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The most {@value #METADATA} (and a graph's configuration JSON) may take. */
  private static final long MAX_METADATA_BYTES = 16 << 20;

  /** What the artifact says about its model. */
  public record Metadata(int format, TransformerConfig config, int vocabSize, String vocabularyHash, long parameters) {}

  private ModelArtifact() {}

  public static void write(ComputationGraph graph, String vocabularyHash, OutputStream out) throws IOException {
    TransformerLayer layer = TransformerFactory.layerConfiguration(graph);
    Metadata metadata = new Metadata(FORMAT, layer.transformerConfig(), layer.vocabSize(), vocabularyHash,
        graph.numParams());
    ByteArrayOutputStream graphBytes = new ByteArrayOutputStream();
    ModelSerializer.writeModel(graph, graphBytes, true);
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put(METADATA, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(metadata));
    entries.put(GRAPH, graphBytes.toByteArray());
    writeZip(entries, out);
  }

  /**
   * What an artifact says about its model, from its first entry alone (where {@link #write} puts it):
   * sizing a job's memory needs no parameters.
   *
   * @param source names the artifact in error messages
   * @throws IllegalArgumentException when the first entry is not {@value #METADATA} or is too large
   */
  public static Metadata metadata(InputStream in, String source) throws IOException {
    ZipInputStream zip = new ZipInputStream(in);
    ZipEntry first = zip.getNextEntry();
    if (first == null || !first.getName().equals(METADATA)) {
      throw new IllegalArgumentException(source + ": not a sparknmt model artifact (its first entry is not " + METADATA + ")");
    }
    byte[] bytes = zip.readNBytes(Math.toIntExact(MAX_METADATA_BYTES + 1));
    if (bytes.length > MAX_METADATA_BYTES) {
      throw new IllegalArgumentException(source + ": entry '" + METADATA + "' inflates to more than " + MAX_METADATA_BYTES
          + " bytes: a damaged or crafted file");
    }
    return JSON.readValue(bytes, Metadata.class);
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
    return read(in, expectedVocabularyHash, source, true);
  }

  /**
   * Reads a model as {@link #read} does, without its updater state, which only training needs: Adam's
   * two moments are twice the parameters, and a decoding JVM's heap held them, inflated and rebuilt into
   * DL4J's zip, only to drop them.
   */
  public static Loaded readForDecoding(InputStream in, String expectedVocabularyHash, String source) throws IOException {
    return read(in, expectedVocabularyHash, source, false);
  }

  private static Loaded read(InputStream in, String expectedVocabularyHash, String source, boolean updater)
      throws IOException {
    Map<String, byte[]> outer = entries(in, List.of(METADATA, GRAPH), List.of(METADATA, GRAPH), source, (name, before) -> {
      if (name.equals(METADATA)) {
        return MAX_METADATA_BYTES;
      }
      if (!before.containsKey(METADATA)) {
        throw new IllegalArgumentException(source + ": entry '" + name + "' before " + METADATA
            + ", which bounds its size; not an artifact written by sparknmt");
      }
      return maxGraphBytes(JSON.readValue(before.get(METADATA), Metadata.class));
    });
    if (!outer.keySet().containsAll(List.of(METADATA, GRAPH))) {
      throw new IllegalArgumentException(source + ": not a sparknmt model artifact (needs entries " + METADATA
          + " and " + GRAPH + ")");
    }
    Metadata metadata = JSON.readValue(outer.get(METADATA), Metadata.class);
    if (metadata.format() != FORMAT) {
      throw new IllegalArgumentException(source + ": artifact format " + metadata.format() + ", this build reads "
          + FORMAT);
    }
    if (!metadata.vocabularyHash().equals(expectedVocabularyHash)) {
      throw new IllegalArgumentException(source + ": the model was trained with vocabulary " + metadata.vocabularyHash()
          + ", but the vocabulary given has hash " + expectedVocabularyHash + "; use the run's own vocabulary");
    }
    long maxGraphBytes = maxGraphBytes(metadata);
    List<String> kept = updater ? GRAPH_ENTRIES
        : GRAPH_ENTRIES.stream().filter(name -> !name.equals(ModelSerializer.UPDATER_BIN)).toList();
    Map<String, byte[]> graphEntries = entries(new ByteArrayInputStream(outer.get(GRAPH)), GRAPH_ENTRIES, kept,
        source + "!" + GRAPH, (name, before) -> maxGraphBytes);
    for (String required : List.of(ModelSerializer.CONFIGURATION_JSON, ModelSerializer.COEFFICIENTS_BIN)) {
      if (!graphEntries.containsKey(required)) {
        throw new IllegalArgumentException(source + ": " + GRAPH + " has no " + required);
      }
    }
    ComputationGraph graph = ModelSerializer.restoreComputationGraph(new ByteArrayInputStream(zip(graphEntries)), updater);
    return new Loaded(metadata, graph);
  }

  /** How many bytes an entry named so may inflate to, given the entries read before it. */
  @FunctionalInterface
  private interface EntryLimit {
    long bytes(String name, Map<String, byte[]> before) throws IOException;
  }

  /**
   * What the graph of {@code metadata}'s model takes at most: its parameters and Adam's two moments in
   * float32 (DL4J's updater state may be float64: twice that), besides configuration JSON.
   */
  private static long maxGraphBytes(Metadata metadata) {
    return Math.min(Integer.MAX_VALUE - 8, Math.max(metadata.parameters(), 0) * 24 + MAX_METADATA_BYTES);
  }

  /**
   * The entries of a zip, each of which must be one of {@code allowed}, appear once and inflate to no
   * more than {@code limit} says: a small crafted file can inflate to gigabytes, and is refused before
   * they are held. DL4J reads a zip through its central directory, this through its local headers, which
   * a crafted file can make disagree; so what DL4J gets is never the original file but a zip rebuilt from
   * these entries. Allowed entries that are not {@code kept} are passed over unread.
   */
  private static Map<String, byte[]> entries(InputStream in, List<String> allowed, List<String> kept, String source,
      EntryLimit limit) throws IOException {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    ZipInputStream zip = new ZipInputStream(in);
    for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
      if (!allowed.contains(e.getName())) {
        throw new IllegalArgumentException(source + ": refusing entry '" + e.getName()
            + "': a model file is code-equivalent input and this build reads only " + String.join(", ", allowed)
            + " from it; use checkpoints written by sparknmt from a trusted source");
      }
      if (!kept.contains(e.getName())) {
        continue;
      }
      long max = limit.bytes(e.getName(), entries);
      byte[] bytes = zip.readNBytes(Math.toIntExact(max + 1));
      if (bytes.length > max) {
        throw new IllegalArgumentException(source + ": entry '" + e.getName() + "' inflates to more than " + max
            + " bytes, more than its model can hold: a damaged or crafted file");
      }
      if (entries.put(e.getName(), bytes) != null) {
        throw new IllegalArgumentException(source + ": entry '" + e.getName() + "' appears twice");
      }
    }
    return entries;
  }

  private static byte[] zip(Map<String, byte[]> entries) throws IOException {
    // sized for the stored entries and their headers, so that it is not copied as it grows
    long size = entries.values().stream().mapToLong(b -> b.length + 1024L).sum() + 1024;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(size, Integer.MAX_VALUE - 8));
    writeZip(entries, bytes);
    return bytes.toByteArray();
  }

  /**
   * Writes a zip of {@code entries} to {@code out}, leaving {@code out} open. Stored, not compressed:
   * the graph entry is DL4J's own deflated zip and float parameters hardly compress, so deflating them
   * again only cost time (a quarter of a translate run's CPU went to deflating models on load).
   */
  private static void writeZip(Map<String, byte[]> entries, OutputStream out) throws IOException {
    ZipOutputStream zip = new ZipOutputStream(out);
    zip.setLevel(Deflater.NO_COMPRESSION);
    for (Map.Entry<String, byte[]> e : entries.entrySet()) {
      zip.putNextEntry(new ZipEntry(e.getKey()));
      zip.write(e.getValue());
      zip.closeEntry();
    }
    zip.finish();
  }
}
