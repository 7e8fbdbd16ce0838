package org.sparknmt.base.lines;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.UsageException;

/**
 * The data files a user names on any Hadoop file system: a file, a folder of part files as Spark
 * writes them, or a glob of either; prepare's corpus input and the text that translate and
 * evaluate read are found the same way.
 */
public final class DataFiles {
  private DataFiles() {}

  /**
   * The files {@code uri} names, sorted, so that the order of lines does not depend on how a file
   * system lists a folder (the local one does not sort). Hidden files ({@code _SUCCESS},
   * {@code .part-00000.crc}) are skipped, as Hadoop's input formats skip them.
   *
   * @param option the command-line option that named {@code uri}, for error messages
   * @throws IllegalArgumentException naming {@code option} and {@code uri} when nothing is there
   */
  public static List<Path> list(String uri, String option, Configuration conf) throws IOException {
    Path path = new Path(uri);
    FileSystem fs = path.getFileSystem(conf);
    FileStatus[] matches = fs.globStatus(path);
    if (matches == null || matches.length == 0) {
      throw new UsageException(option + " " + uri + ": no such file");
    }
    List<Path> files = new ArrayList<>();
    for (FileStatus match : matches) {
      FileStatus[] inside = match.isDirectory() ? fs.listStatus(match.getPath()) : new FileStatus[] {match};
      Arrays.stream(inside).filter(FileStatus::isFile).map(FileStatus::getPath).filter(DataFiles::isVisible)
          .forEach(files::add);
    }
    if (files.isEmpty()) {
      throw new UsageException(option + " " + uri
          + ": no files to read (names starting with '_' or '.' are skipped)");
    }
    files.sort(null);
    return files;
  }

  private static boolean isVisible(Path file) {
    String name = file.getName();
    return !name.startsWith("_") && !name.startsWith(".");
  }
}
