package org.sparknmt.base.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes that an object store itself refuses when its object changed: a create refused where the object
 * exists (S3A: If-None-Match: *, HADOOP-19256) and an overwrite refused unless the object still has the
 * ETag the writer read (If-Match). The whole object is sent at {@code close()}, so a refused or failed write
 * leaves the object as it was. Stores whose Hadoop client offers neither ({@link #available} false) cannot
 * use them.
 */
public final class ConditionalWrites {
  /** The builder option and path capability of a create that the store refuses where the object exists. */
  public static final String CREATE = "fs.option.create.conditional.overwrite";
  /** The builder option of an overwrite that the store refuses unless the object still has this ETag. */
  public static final String ETAG = "fs.option.create.conditional.overwrite.etag";

  private ConditionalWrites() {}

  /** Whether {@code fs} offers conditional writes at {@code path}. */
  public static boolean available(FileSystem fs, Path path) throws IOException {
    return fs.hasPathCapability(path, CREATE);
  }

  /** A stream that creates {@code file} at {@code close()} only where no object of that name exists then. */
  public static FSDataOutputStream create(FileSystem fs, Path file) throws IOException {
    return build(fs, file, false, CREATE, "true");
  }

  /** A stream that replaces {@code file} at {@code close()} only if it still has {@code etag} then. */
  public static FSDataOutputStream replace(FileSystem fs, Path file, String etag) throws IOException {
    return build(fs, file, true, ETAG, etag);
  }

  private static FSDataOutputStream build(FileSystem fs, Path file, boolean overwrite, String condition, String value)
      throws IOException {
    FSDataOutputStreamBuilder<FSDataOutputStream, ?> builder = fs.createFile(file).overwrite(overwrite);
    builder.must(condition, value);
    return builder.build();
  }

  /** The object's ETag, which {@link #replace} names; empty where it does not exist or its store has none. */
  public static Optional<String> etag(FileSystem fs, Path file) throws IOException {
    try {
      return fs.getFileStatus(file) instanceof EtagSource source && source.getEtag() != null
          ? Optional.of(source.getEtag()) : Optional.empty();
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }
}
