package org.sparknmt.base.lines;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.api.java.JavaRDD;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.FileReplacement;
import org.sparknmt.base.files.WriteLeftovers;

/**
 * Writes an RDD of lines as one file, in partition order: the executors write part files into a
 * hidden folder beside the target ({@code .NAME.parts-<id>}), then the driver streams the parts,
 * in name order, into the target, compressed when its name says so ({@code .gz}, {@code .bz2}), and
 * removes the folder. The target appears only when complete: written under a temporary name, it then
 * takes the target's name by {@link FileReplacement}, so a replaced file is never lost to a kill. What a
 * killed write leaves hidden is removed by the next write beside it ({@link WriteLeftovers}).
 */
public final class SingleFileOutput {
  private SingleFileOutput() {}

  /**
   * Writes {@code lines} to {@code uri}.
   *
   * @param replace whether an existing file may be replaced
   * @return the number of lines written
   */
  public static long write(JavaRDD<String> lines, String uri, boolean replace, Configuration hadoop) throws IOException {
    Path target = new Path(uri);
    FileSystem fs = target.getFileSystem(hadoop);
    if (fs.exists(target)) {
      if (!replace || fs.getFileStatus(target).isDirectory()) {
        throw new UsageException("--output " + uri + " exists"
            + (fs.getFileStatus(target).isDirectory() ? " and is a directory" : "; remove it or pass --force"));
      }
    }
    WriteLeftovers.Write write = WriteLeftovers.Write.start();
    WriteLeftovers.remove(fs, target.getParent(), write, target.getName());
    Path parts = write.parts(target);
    Path partial = write.partial(target);
    try {
      lines.saveAsTextFile(parts.toString());
      long count = concatenate(fs, parts, partial, new CompressionCodecFactory(hadoop).getCodec(target));
      FileReplacement.replace(fs, partial, target);
      return count;
    } finally {
      fs.delete(parts, true);
      fs.delete(partial, false);
    }
  }

  private static long concatenate(FileSystem fs, Path parts, Path into, CompressionCodec codec) throws IOException {
    FileStatus[] files = fs.listStatus(parts, p -> p.getName().startsWith("part-"));
    Arrays.sort(files);
    long newlines = 0;
    byte[] buffer = new byte[1 << 16];
    OutputStream raw = DurableFiles.create(fs, into, false);
    try (OutputStream out = codec == null ? raw : codec.createOutputStream(raw)) {
      for (FileStatus file : files) {
        try (InputStream in = fs.open(file.getPath())) {
          for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            out.write(buffer, 0, n);
            for (int i = 0; i < n; i++) {
              if (buffer[i] == '\n') {
                newlines++;
              }
            }
          }
        }
      }
    }
    return newlines;
  }
}
