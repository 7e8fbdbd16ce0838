package org.sparknmt.base.files;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Puts a complete folder in place under its final name, replacing one already there, so that a folder
 * under the final name is always whole: the old folder is renamed aside, the new one takes the name,
 * then the old one is deleted. A kill between the steps leaves the final name free or whole, and the
 * other folders under names that their owner's clean-up removes (a prepare's staging and old data, a
 * checkpoint store's temporaries). Prepare's {@code RUN/data} and each checkpoint are written this way.
 */
public final class FolderSwap {
  private FolderSwap() {}

  /** Renames {@code complete}, synced to disk first ({@link DurableFiles}), to {@code target}; a folder at {@code target} goes to {@code aside} first, then away. */
  public static void install(FileSystem fs, Path complete, Path target, Path aside) throws IOException {
    boolean replacing = fs.exists(target);
    if (replacing) {
      rename(fs, target, aside);
    }
    DurableFiles.sync(fs, complete);
    rename(fs, complete, target);
    DurableFiles.syncFolderOf(fs, target);
    if (replacing) {
      fs.delete(aside, true);
    }
  }

  private static void rename(FileSystem fs, Path from, Path to) throws IOException {
    if (!fs.rename(from, to)) {
      throw new IOException("could not rename " + from + " to " + to);
    }
  }
}
