package org.sparknmt.base.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Small whole-file reads and writes on any Hadoop file system. */
public final class HadoopFiles {
  private HadoopFiles() {}

  public static byte[] read(Path path, Configuration conf) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    if (!fs.exists(path)) {
      throw new IllegalArgumentException(path + " does not exist");
    }
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    }
  }

  public static void write(Path path, byte[] bytes, Configuration conf) throws IOException {
    try (OutputStream out = path.getFileSystem(conf).create(path, false)) {
      out.write(bytes);
    }
  }
}
