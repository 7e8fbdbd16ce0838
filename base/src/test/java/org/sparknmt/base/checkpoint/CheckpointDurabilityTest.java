package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparknmt.base.run.RunLayout;

/**
 * A checkpoint's files are synced ({@code hsync}, an fsync on HDFS's DataNodes) before the rename that
 * publishes them: otherwise an OS crash or a power cut can leave a renamed step-N with empty files.
 * The local file system without checksums, whose streams do sync, records the order of the calls.
 */
class CheckpointDurabilityTest {
  @TempDir java.nio.file.Path dir;

  /** Records, for each file created, whether it was synced before it was closed; and each rename with that record. */
  static final class Recording extends FilterFileSystem {
    final Map<Path, Boolean> syncedAtClose = new LinkedHashMap<>();
    final List<String> unsyncedAtRename = new ArrayList<>();
    int renames;

    Recording(Configuration conf) throws IOException {
      super(new RawLocalFileSystem());
      fs.initialize(URI.create("file:///"), conf);
      setConf(conf);
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
        long blockSize, Progressable progress) throws IOException {
      FSDataOutputStream raw = fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
      Path file = makeQualified(f);
      syncedAtClose.put(file, false);
      boolean[] synced = {false};
      return new FSDataOutputStream(new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          raw.write(b);
          synced[0] = false;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          raw.write(b, off, len);
          synced[0] = len == 0 && synced[0];
        }

        @Override
        public void close() throws IOException {
          syncedAtClose.put(file, synced[0]);
          raw.close();
        }
      }, null) {
        @Override
        public void hsync() throws IOException {
          raw.hsync();
          synced[0] = true;
        }
      };
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
      renames++;
      String from = makeQualified(src).toString();
      syncedAtClose.forEach((file, synced) -> {
        if (!synced && file.toString().startsWith(from)) {
          unsyncedAtRename.add(file.getName());
        }
      });
      return super.rename(src, dst);
    }
  }

  @Test
  void everyFileIsSyncedBeforeTheRenameThatPublishesIt() throws IOException {
    Recording fs = new Recording(new Configuration());
    Path root = new Path(dir.toUri().toString(), "checkpoints");
    CheckpointWriter writer = new CheckpointWriter(fs, root, CheckpointWritePause.NONE, false);
    Path written = writer.write(RunLayout.checkpointName(10), CheckpointStoreTest.state(10, 1.0),
        out -> out.write("model".getBytes(StandardCharsets.UTF_8)), out -> out.write(1));
    assertEquals(1, fs.renames);
    assertEquals(List.of(), fs.unsyncedAtRename, "closed without hsync before the rename");
    assertEquals(4, fs.syncedAtClose.size(), fs.syncedAtClose.toString());
    assertTrue(Files.isRegularFile(java.nio.file.Path.of(written.toUri()).resolve(CheckpointStore.MODEL)));
  }
}
