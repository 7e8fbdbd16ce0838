package org.sparknmt.base.files;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Replaces a whole file by a complete temporary one so that no kill loses it. HDFS renames over an
 * existing file in one NameNode operation, so there the file is never missing. Other Hadoop file
 * systems rename only onto a free name (or not atomically): there the old file is first renamed to
 * a backup {@code .NAME.bak}, the new one takes its name, and the backup is deleted; a kill between
 * the two renames leaves the backup, which {@link #recover} puts back.
 */
public final class FileReplacement {
  private FileReplacement() {}

  /**
   * Gives {@code temporary} (complete and closed; written with {@link DurableFiles#create}) the name
   * {@code target}, replacing any file there, its bytes synced to disk before the rename.
   */
  public static void replace(FileSystem fs, Path temporary, Path target) throws IOException {
    DurableFiles.sync(fs, temporary);
    if (fs instanceof DistributedFileSystem hdfs) {
      hdfs.rename(temporary, target, Options.Rename.OVERWRITE);
      return;
    }
    Path backup = backup(target);
    fs.delete(backup, false);
    if (fs.exists(target)) {
      rename(fs, target, backup);
    }
    rename(fs, temporary, target);
    DurableFiles.syncFolderOf(fs, target);
    fs.delete(backup, false);
  }

  /**
   * Puts back the backup of {@code target} that a replacement killed between its two renames left
   * behind, if {@code target} itself is missing. A backup beside an existing target is the older
   * version and stays until the next replacement removes it.
   */
  public static void recover(FileSystem fs, Path target) throws IOException {
    Path backup = backup(target);
    if (!fs.exists(target) && fs.exists(backup)) {
      rename(fs, backup, target);
    }
  }

  static Path backup(Path target) {
    return new Path(target.getParent(), "." + target.getName() + ".bak");
  }

  private static void rename(FileSystem fs, Path from, Path to) throws IOException {
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }
}
