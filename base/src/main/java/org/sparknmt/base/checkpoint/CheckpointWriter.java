package org.sparknmt.base.checkpoint;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.files.ConditionalWrites;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.FolderSwap;
import org.sparknmt.base.files.StorageFailures;

/**
 * The write side of a {@link CheckpointStore}: a checkpoint's files go into a temporary folder
 * {@code .NAME.tmp-WRITER-UUID} with their SHA-256 in {@code checksums.json}, and the complete folder
 * takes its final name ({@link FolderSwap}). On an object store with conditional writes, whose rename
 * copies file by file, the folder keeps its unique name {@code .NAME.v-WRITER-UUID} and is published by
 * one conditional write of a pointer {@code NAME} holding that name. Every temporary name (folders, the folder a replaced
 * checkpoint is moved aside to, write probes) carries this writer's id, so that its clean-up removes
 * only its own leftovers while another writer may still be writing.
 */
final class CheckpointWriter {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  /** Marks the folder of a checkpoint published by a pointer: {@code .NAME.v-WRITER-UUID}. */
  private static final String VERSION = ".v-";
  /** More than a pointer (a folder name) holds. */
  private static final int POINTER_BYTES = 4096;

  private final FileSystem fs;
  private final Path root;
  private final String id = UUID.randomUUID().toString();
  private final CheckpointWritePause pause;
  /**
   * Whether checkpoints are published by a pointer, not renamed: on an object store, whose rename copies
   * file by file, with conditional writes ({@link ConditionalWrites}).
   */
  private final boolean pointers;
  /** The folder of the checkpoint this writer published last, which its store need not read the pointer for. */
  private Path lastPublished;
  /** This writer's folders whose pointer was not written (a failed write, retried): its prune removes them. */
  private final Set<Path> unpublished = new HashSet<>();

  CheckpointWriter(FileSystem fs, Path root, CheckpointWritePause pause, boolean pointers) {
    this.fs = fs;
    this.root = root;
    this.pause = pause;
    this.pointers = pointers;
  }

  boolean pointers() {
    return pointers;
  }

  /** Writes the checkpoint folder {@code name} and returns it; one already there is replaced. */
  Path write(String name, TrainingState state, CheckpointStore.ModelWriter model, CheckpointStore.ModelWriter outer)
      throws IOException {
    Path target = new Path(root, name);
    Path temporary = pointers ? version(name) : temporary(name);
    if (pointers) {
      unpublished.add(temporary);
    }
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
    if (pointers) {
      publish(target, temporary);
    } else {
      FolderSwap.install(fs, temporary, target, temporary(name));
    }
    return target;
  }

  /**
   * Makes {@code folder} the checkpoint {@code pointer} names, by one conditional write of the pointer: a
   * create where there is none, else an overwrite on condition that it still names what this writer read
   * (its ETag), after which the folder it named is deleted. Until the write, readers see the earlier
   * checkpoint or none; a write refused because the pointer changed meanwhile fails naming it.
   */
  private void publish(Path pointer, Path folder) throws IOException {
    FileStatus existing;
    try {
      existing = fs.getFileStatus(pointer);
    } catch (FileNotFoundException e) {
      existing = null;
    }
    Path replaced = null;
    OutputStream out;
    if (existing == null) {
      out = ConditionalWrites.create(fs, pointer);
    } else if (existing.isDirectory()) {
      // a checkpoint folder renamed into place elsewhere (a run copied from HDFS): nothing to make conditional on
      fs.delete(pointer, true);
      out = ConditionalWrites.create(fs, pointer);
    } else {
      replaced = folderOf(pointer);
      String etag = ConditionalWrites.etag(fs, pointer)
          .orElseThrow(() -> new IOException("the store gives no ETag for " + pointer + ": cannot replace it conditionally"));
      out = ConditionalWrites.replace(fs, pointer, etag);
    }
    try {
      StorageFailures.writeAndClose(out, stream -> stream.write(folder.getName().getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new IOException("publishing " + pointer + " failed (did another writer publish it meanwhile?): "
          + e.getMessage(), e);
    }
    unpublished.remove(folder);
    lastPublished = folder;
    if (replaced != null && !replaced.equals(folder)) {
      fs.delete(replaced, true);
    }
  }

  Path lastPublished() {
    return lastPublished;
  }

  /** The folder that holds the checkpoint at {@code path}: the one its pointer names, or the path itself. */
  Path folderOf(Path path) throws IOException {
    if (!pointers) {
      return path;
    }
    FileStatus status = fs.getFileStatus(path);
    return status.isFile() ? new Path(path.getParent(), target(path)) : path;
  }

  /** The folder name a pointer holds. */
  private String target(Path pointer) throws IOException {
    try (InputStream in = fs.open(pointer)) {
      String name = new String(in.readNBytes(POINTER_BYTES), StandardCharsets.UTF_8).trim();
      if (name.isEmpty() || name.contains("/")) {
        throw new IOException(pointer + " is not a checkpoint pointer: '" + name + "'");
      }
      return name;
    }
  }

  /** Deletes the checkpoint at {@code path}: its pointer first (unpublishing it), then its folder. */
  boolean remove(Path path) throws IOException {
    Path folder = folderOf(path);
    if (folder.equals(path)) {
      return fs.delete(path, true);
    }
    return fs.delete(path, false) & fs.delete(folder, true);
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
    for (Path folder : List.copyOf(unpublished)) {
      // a pointer write the store took whose answer was lost names the folder all the same
      String name = folder.getName().substring(1, folder.getName().indexOf(VERSION));
      Path pointer = new Path(root, name);
      boolean named;
      try {
        named = fs.getFileStatus(pointer).isFile() && target(pointer).equals(folder.getName());
      } catch (FileNotFoundException e) {
        named = false;
      }
      if (!named) {
        fs.delete(folder, true);
      }
      unpublished.remove(folder);
    }
    removeTemporaries(id + "-");
  }

  /** Removes the temporary folders and probes of every writer. */
  void removeAllLeftovers() throws IOException {
    if (fs.exists(root)) {
      removeTemporaries("");
    }
  }

  private Path version(String name) {
    return new Path(root, "." + name + VERSION + id + "-" + UUID.randomUUID());
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

  /**
   * With every writer's ({@code writerPrefix} empty), also the folders that no pointer names: writes killed
   * before they were published, which reads every pointer once. This writer's own are known without reading.
   */
  private void removeTemporaries(String writerPrefix) throws IOException {
    FileStatus[] all = fs.listStatus(root);
    Set<String> published = null;
    for (FileStatus status : all) {
      String name = status.getPath().getName();
      boolean version = writerPrefix.isEmpty() && name.contains(VERSION);
      boolean matches = version || name.contains(".tmp-" + writerPrefix) || name.startsWith(".write-probe-" + writerPrefix);
      if (name.startsWith(".") && matches) {
        if (version) {
          published = published != null ? published : published(all);
          if (published.contains(name)) {
            continue;
          }
        }
        fs.delete(status.getPath(), true);
      }
    }
  }

  /** The folders the pointers among {@code entries} name. */
  private Set<String> published(FileStatus[] entries) throws IOException {
    Set<String> names = new HashSet<>();
    for (FileStatus status : entries) {
      if (status.isFile() && !status.getPath().getName().startsWith(".")) {
        try {
          names.add(target(status.getPath()));
        } catch (FileNotFoundException e) {
          // removed meanwhile: it names nothing
        }
      }
    }
    return names;
  }
}
