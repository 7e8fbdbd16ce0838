package org.sparknmt.base.run;

import org.apache.hadoop.fs.Path;

/**
 * Where prepare's outputs live under a run directory (any Hadoop URI). Prepare writes everything
 * into {@code RUN/data.tmp-<id>/}, the manifest last, then renames that folder to {@code RUN/data}:
 * a {@code RUN/data} with a {@code manifest.json} is complete, anything else is not. The static
 * methods name the files inside either folder.
 */
public record RunLayout(Path run) {
  public static final String MANIFEST = "manifest.json";
  /** The vocabulary, relative to the data folder (the manifest names it too). */
  public static final String VOCAB_FILE = "vocab/bpe.json";
  public static final String TMP_PREFIX = "data.tmp-";
  public static final String OLD_PREFIX = "data.old-";

  public static RunLayout of(String runUri) {
    return new RunLayout(new Path(runUri));
  }

  /** {@code RUN/data}: complete once it exists, since it appears by one rename. */
  public Path data() {
    return new Path(run, "data");
  }

  public static Path manifest(Path data) {
    return new Path(data, MANIFEST);
  }

  /** The vocabulary, {@code vocab/bpe.json}, and beside it its SHA-256 in {@code sha256sum} format. */
  public static Path vocabFile(Path data) {
    return new Path(data, VOCAB_FILE);
  }

  public static Path vocabHashFile(Path data) {
    return new Path(data, VOCAB_FILE + ".sha256");
  }

  public static Path rejects(Path data) {
    return new Path(data, "rejects");
  }

  /** The shards of one split, in the split's folder ({@code train} or {@code valid}). */
  public static Path shards(Path data, String splitFolder) {
    return new Path(data, splitFolder);
  }
}
