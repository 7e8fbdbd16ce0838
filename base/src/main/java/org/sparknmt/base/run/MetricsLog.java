package org.sparknmt.base.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.FileReplacement;
import org.sparknmt.base.files.StorageFailures;

/**
 * {@code RUN/metrics/NAME.jsonl}: one JSON object a line, each with its {@code step}. Not every
 * Hadoop file system appends, so the lines are kept in memory and the file is rewritten (temporary
 * name, then {@link FileReplacement}, so that a kill never leaves the run without it) on
 * {@link #flush()}. On resume, lines after the resumed step are dropped:
 * they belong to the part of the run that the checkpoint does not hold.
 */
public final class MetricsLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final FileSystem fs;
  private final List<String> lines = new ArrayList<>();

  private MetricsLog(Path file, FileSystem fs) {
    this.file = file;
    this.fs = fs;
  }

  /** Opens the log, keeping the lines of steps up to {@code resumedStep}. */
  public static MetricsLog open(String runUri, String name, long resumedStep, Configuration hadoop) throws IOException {
    Path file = RunLayout.of(runUri).metricsLog(name);
    MetricsLog log = new MetricsLog(file, file.getFileSystem(hadoop));
    FileReplacement.recover(log.fs, file);
    if (log.fs.exists(file)) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(log.fs.open(file), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (!line.isBlank() && JSON.readTree(line).path(RunMetric.STEP.key()).asLong() <= resumedStep) {
            log.lines.add(line);
          }
        }
      }
    }
    return log;
  }

  /** Adds one record: {@code step} first, then the values in their order. */
  public void add(long step, Map<String, ?> values) {
    ObjectNode node = JSON.createObjectNode();
    node.put(RunMetric.STEP.key(), step);
    values.forEach((key, value) -> node.putPOJO(key, value));
    lines.add(node.toString());
  }

  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** Rewrites the file with every line so far; a failure names the file. */
  public void flush() throws IOException {
    try {
      rewrite();
    } catch (IOException e) {
      throw StorageFailures.failure("writing metrics " + file + " failed", e);
    }
  }

  private void rewrite() throws IOException {
    Path temporary = new Path(file.getParent(), "." + file.getName() + ".tmp-" + UUID.randomUUID());
    fs.mkdirs(file.getParent());
    StorageFailures.writeAndClose(DurableFiles.create(fs, temporary, true), out -> {
      for (String line : lines) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    });
    FileReplacement.replace(fs, temporary, file);
  }
}
