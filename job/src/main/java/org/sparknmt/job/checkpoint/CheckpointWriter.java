package org.sparknmt.job.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.datasets.files.DurableFiles;
import org.sparknmt.datasets.files.FolderSwap;
import org.sparknmt.job.io.StorageFailures;

/**
 * The write side of a {@link CheckpointStore}: a checkpoint's files go into a temporary folder
 * {@code .NAME.tmp-WRITER-UUID} with their SHA-256 in {@code checksums.json}, and the complete folder
 * takes its final name ({@link FolderSwap}). Every temporary name (folders, the folder a replaced
 * checkpoint is moved aside to, write probes) carries this writer's id, so that its clean-up removes
 * only its own leftovers while another writer may still be writing.
 */
final class CheckpointWriter {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final FileSystem fs;
  private final Path root;
  private final String id = UUID.randomUUID().toString();
  private final CheckpointWritePause pause;

  CheckpointWriter(FileSystem fs, Path root, CheckpointWritePause pause) {
    this.fs = fs;
    this.root = root;
    this.pause = pause;
  }

  /** Writes the checkpoint folder {@code name} and returns it; one already there is replaced. */
  Path write(String name, TrainingState state, CheckpointStore.ModelWriter model, CheckpointStore.ModelWriter outer)
      throws IOException {
    Path target = new Path(root, name);
    Path temporary = temporary(name);
    fs.mkdirs(temporary);
    Map<String, String> checksums = new LinkedHashMap<>();
    checksums.put(CheckpointStore.MODEL, write(new Path(temporary, CheckpointStore.MODEL), model));
    checksums.put(CheckpointStore.STATE, write(new Path(temporary, CheckpointStore.STATE), out -> JSON.writeValue(out, state)));
    if (outer != null) {
      checksums.put(CheckpointStore.OUTER, write(new Path(temporary, CheckpointStore.OUTER), outer));
    }
    write(new Path(temporary, CheckpointStore.CHECKSUMS), out -> JSON.writeValue(out, checksums));
    pause.beforeRename(name, temporary);
    // a rerun that resumed from an earlier checkpoint reaches this step again: the new one replaces it
    FolderSwap.install(fs, temporary, target, temporary(name));
    return target;
  }

  /** Writes and deletes a one-byte probe file under the checkpoint folder; throws what the write met. */
  void probe() throws IOException {
    Path probe = new Path(root, ".write-probe-" + id + "-" + UUID.randomUUID());
    try {
      fs.mkdirs(root);
      write(probe, out -> out.write(1));
    } finally {
      try {
        fs.delete(probe, false);
      } catch (IOException ignored) {
        // the write failed already (and says why); a probe that cannot be deleted either is left for the clean-up
      }
    }
  }

  /** Removes the temporary folders and probes of this writer's interrupted writes. */
  void removeOwnLeftovers() throws IOException {
    removeTemporaries(id + "-");
  }

  /** Removes the temporary folders and probes of every writer. */
  void removeAllLeftovers() throws IOException {
    if (fs.exists(root)) {
      removeTemporaries("");
    }
  }

  private Path temporary(String name) {
    return new Path(root, "." + name + ".tmp-" + id + "-" + UUID.randomUUID());
  }

  private String write(Path file, CheckpointStore.ModelWriter content) throws IOException {
    MessageDigest digest = CheckpointChecksums.sha256();
    OutputStream out = new DigestOutputStream(DurableFiles.create(fs, file, false), digest);
    StorageFailures.writeAndClose(out, content::write);
    return HexFormat.of().formatHex(digest.digest());
  }

  private void removeTemporaries(String writerPrefix) throws IOException {
    for (FileStatus status : fs.listStatus(root)) {
      String name = status.getPath().getName();
      boolean matches = name.contains(".tmp-" + writerPrefix) || name.startsWith(".write-probe-" + writerPrefix);
      if (name.startsWith(".") && matches) {
        fs.delete(status.getPath(), true);
      }
    }
  }
}
