package org.sparknmt.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaSparkContext;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.TrainingState;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.prepare.PrepareJob;
import org.sparknmt.prepare.input.CorpusInput;

/**
 * Tiny runs for the job tests: {@code RUN/data} prepared on the cluster from the head of the
 * shipped sample, checkpoints of freshly initialized models (translation does not care whether a
 * model learned anything, and skipping training keeps those tests fast), and file helpers.
 */
public final class TinyRun {
  /** One layer, d_model 32, max_length 32: sentences over 31 subwords are translated in pieces. */
  public static final TransformerConfig MODEL = new TransformerConfig(32, 2, 64, 1, 32, 0.1, 0.0, 0.1, true, false, false);

  private TinyRun() {}

  /** The first {@code lines} lines of a sample file ({@code valid.en.gz}, ...). */
  public static List<String> sample(String file, int lines) throws IOException {
    Path gz = BuildDirs.root().getParent().resolve("data/sample").resolve(file);
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().limit(lines).toList();
    }
  }

  /** Prepares {@code /runs/NAME} on {@code hdfs} from 200 + 20 sample pairs with a joint vocabulary of {@code vocabSize}; its URI. */
  public static String prepare(JavaSparkContext sc, MiniHdfs hdfs, String name, int vocabSize) throws IOException {
    return prepare(sc, hdfs, name, 200, 20, vocabSize);
  }

  /** Prepares {@code /runs/NAME} on {@code hdfs} from the first {@code trainPairs} and {@code validPairs} sample pairs; its URI. */
  public static String prepare(JavaSparkContext sc, MiniHdfs hdfs, String name, int trainPairs, int validPairs,
      int vocabSize) throws IOException {
    String src = write(hdfs, "/corpus/" + name + "/train.en", sample("train.en.gz", trainPairs), false);
    String tgt = write(hdfs, "/corpus/" + name + "/train.de", sample("train.de.gz", trainPairs), false);
    String validSrc = write(hdfs, "/corpus/" + name + "/valid.en", sample("valid.en.gz", validPairs), false);
    String validTgt = write(hdfs, "/corpus/" + name + "/valid.de", sample("valid.de.gz", validPairs), false);
    String run = hdfs.path("/runs/" + name);
    PrepareConfig config = new PrepareConfig(vocabSize, 0.9995, 200_000, 80, 400, 9.0, 120, 384, 0, 2, 2, 0.0, 17);
    PrepareJob.run(sc, new PrepareJob.Request(new CorpusInput.Aligned(src, tgt),
        new CorpusInput.Aligned(validSrc, validTgt), run, config, false, false));
    return run;
  }

  /** Saves a checkpoint of an untrained model (initialized from {@code seed}) under the folder {@code name}. */
  public static CheckpointStore.Checkpoint checkpoint(String run, String name, long step, long seed, double validLoss,
      Configuration hadoop) throws IOException {
    PreparedData data = PreparedData.open(run, hadoop);
    ComputationGraph graph = TransformerFactory.create(MODEL, data.vocabulary().size(), seed);
    TrainingState state = new TrainingState(step, 0, 0, 1, 0.0, seed, data.vocabularySha256(), "", Map.of("valid_loss", validLoss),
        validLoss, 0, 0.0, null);
    CheckpointStore store = new CheckpointStore(run, hadoop);
    store.save(name, state, out -> ModelArtifact.write(graph, data.vocabularySha256(), out), null);
    return store.resolve(name);
  }

  /** Writes {@code lines}, each ended by '\n', gzip-compressed when asked; the file's URI. */
  public static String write(MiniHdfs hdfs, String path, List<String> lines, boolean gzip) throws IOException {
    FileSystem fs = hdfs.hdfs().cluster().getFileSystem();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(path);
    OutputStream raw = fs.create(file, true);
    try (OutputStream out = gzip ? new GZIPOutputStream(raw) : raw) {
      StringBuilder text = new StringBuilder();
      lines.forEach(line -> text.append(line).append('\n'));
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return hdfs.path(path);
  }

  /** The lines of a text file whose every line ends with '\n', on any Hadoop FS. */
  public static List<String> read(String uri, Configuration hadoop) throws IOException {
    String text = text(uri, hadoop);
    if (text.isEmpty()) {
      return List.of();
    }
    if (!text.endsWith("\n")) {
      throw new AssertionError(uri + ": the last line has no line end");
    }
    return List.of(text.substring(0, text.length() - 1).split("\n", -1));
  }

  public static String text(String uri, Configuration hadoop) throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(uri);
    try (InputStream in = file.getFileSystem(hadoop).open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
