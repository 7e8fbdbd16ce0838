package org.sparknmt.base.files;

import java.io.File;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Data on stable storage before a rename publishes it. A rename is atomic, but without a sync the
 * new name can reach the disk before the bytes it names: after an OS crash or a power cut a renamed
 * checkpoint could hold empty files while prune has deleted the older ones. On HDFS a file is synced
 * by {@code hsync} before it is closed ({@link #create}); the local file system (whose checksummed
 * streams make {@code hsync} a flush) is synced by {@link FileChannel#force} on each file and folder
 * ({@link #sync}), the folder holding a renamed entry included ({@link #syncFolderOf}). Object stores
 * have no rename to order against; their uploads are whole at {@code close()}.
 */
public final class DurableFiles {
  private DurableFiles() {}

  /** A new file whose {@code close()} first syncs it to the DataNodes' disks where the file system can ({@code hsync}). */
  public static OutputStream create(FileSystem fs, Path file, boolean overwrite) throws IOException {
    FSDataOutputStream stream = fs.create(file, overwrite);
    return new FilterOutputStream(stream) {
      private boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        stream.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        // a failed sync leaves the stream to close all the same; HDFS's close then rethrows the sync's error
        try {
          stream.hsync();
        } finally {
          stream.close();
        }
      }
    };
  }

  /**
   * Forces {@code path} (a closed file, or a folder and everything under it) to disk on the local file
   * system, before it is renamed into place; elsewhere nothing (HDFS files are synced by {@link #create}).
   */
  public static void sync(FileSystem fs, Path path) throws IOException {
    File local = local(fs, path);
    if (local != null) {
      force(local);
    }
  }

  /** Forces the folder holding {@code path} on the local file system: the entry a rename made there. */
  public static void syncFolderOf(FileSystem fs, Path path) throws IOException {
    File local = local(fs, path);
    if (local != null && local.getParentFile() != null) {
      forceOne(local.getParentFile());
    }
  }

  private static File local(FileSystem fs, Path path) {
    RawLocalFileSystem local = localFileSystem(fs);
    return local == null ? null : local.pathToFile(fs.makeQualified(path));
  }

  /** The local file system under {@code fs} (checksummed or not), or null when {@code fs} is not local. */
  public static RawLocalFileSystem localFileSystem(FileSystem fs) {
    FileSystem raw = fs instanceof FilterFileSystem filter ? filter.getRawFileSystem() : fs;
    return raw instanceof RawLocalFileSystem local ? local : null;
  }

  private static void force(File file) throws IOException {
    File[] inside = file.listFiles();
    if (inside != null) {
      for (File child : inside) {
        force(child);
      }
    }
    forceOne(file);
  }

  private static void forceOne(File file) throws IOException {
    StandardOpenOption mode = file.isDirectory() ? StandardOpenOption.READ : StandardOpenOption.WRITE;
    try (FileChannel channel = FileChannel.open(file.toPath(), mode)) {
      channel.force(true);
    }
  }
}
