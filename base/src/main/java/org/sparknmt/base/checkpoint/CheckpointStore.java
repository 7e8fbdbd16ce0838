package org.sparknmt.base.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.ConditionalWrites;
import org.sparknmt.base.files.StorageFailures;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.base.run.RunMetric;

/**
 * Checkpoints under {@code RUN/checkpoints/} on any Hadoop file system.
 *
 * <p>A checkpoint is a folder {@code step-NNNNNNNN/} holding {@code model.zip} (configuration,
 * parameters, updater state), {@code state.json} and {@code checksums.json} (SHA-256 of the other
 * two). It is written under a temporary name and renamed when complete, so a folder with the final
 * name is whole unless its bytes were damaged afterwards, which the checksums catch: a checkpoint
 * whose files do not match is skipped with a warning and never loaded. On an object store with
 * conditional writes the folder keeps its unique name and {@code step-NNNNNNNN} is a pointer to it,
 * published by one conditional write ({@link CheckpointWriter}); {@link Checkpoint#path} is then the
 * pointer, which this store's reads follow.
 */
public final class CheckpointStore {
  public static final String MODEL = "model.zip";
  public static final String STATE = "state.json";
  public static final String CHECKSUMS = "checksums.json";
  /** The outer optimizer's momentum (train.outer), present only when one is used. */
  public static final String OUTER = "outer-momentum.bin";
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RunLayout layout;
  private final Path root;
  private final FileSystem fs;
  private final Configuration hadoop;
  /** Its temporary folders and probes carry its id, so that {@link #prune} removes only this store's own. */
  private final CheckpointWriter writer;
  /**
   * What this store found in each {@code step-N} folder (intact with its state, damaged, or unreadable),
   * by name and {@link #fingerprint}: a checkpoint of a Transformer-base model is about 2.3 GB, and a file
   * whose block has no live replica costs HDFS's block retries (about 20 s) at every read, so each folder
   * is read once, when this store first lists it or when it wrote it, and not again at every prune. A
   * folder whose files change (a rewrite, by this store or another writer) gets a new fingerprint and is
   * read again.
   */
  private final Map<String, Folder> known = new HashMap<>();
  /** The folder each pointer names, by the pointer's name and ETag: a pointer is read once per version. */
  private final Map<String, Path> pointerTargets = new HashMap<>();

  /** A stream consumer that may throw, for writing the model. */
  @FunctionalInterface
  public interface ModelWriter {
    void write(OutputStream out) throws IOException;
  }

  /** A checkpoint found on disk: its folder, step and state. */
  public record Checkpoint(Path path, long step, TrainingState state) {}

  public CheckpointStore(String runUri, Configuration hadoop) throws IOException {
    this(runUri, hadoop, CheckpointWritePause.NONE);
  }

  /** A store whose writes stop where {@code pause} says (a fault test's hook). */
  public CheckpointStore(String runUri, Configuration hadoop, CheckpointWritePause pause) throws IOException {
    this.layout = RunLayout.of(runUri);
    this.root = layout.checkpoints();
    this.fs = root.getFileSystem(hadoop);
    this.hadoop = hadoop;
    this.writer = new CheckpointWriter(fs, root, pause, ConditionalWrites.available(fs, root));
  }

  public Path root() {
    return root;
  }

  /**
   * Writes the checkpoint {@code step-NNNNNNNN} of {@code state.step()} atomically and returns its folder.
   *
   * @param outer writes the outer optimizer's state; null when there is none
   */
  public Path save(TrainingState state, ModelWriter model, ModelWriter outer) throws IOException {
    return save(RunLayout.checkpointName(state.step()), state, model, outer);
  }

  /**
   * Writes a checkpoint folder {@code name} atomically. Only {@code step-N} folders take part in
   * resuming and pruning; other names (averaged checkpoints) are kept as they are.
   */
  public Path save(String name, TrainingState state, ModelWriter model, ModelWriter outer) throws IOException {
    Path written;
    try {
      written = writer.write(name, state, model, outer);
    } catch (IOException e) {
      throw StorageFailures.failure("writing checkpoint " + new Path(root, name) + " failed", e);
    }
    OptionalLong step = RunLayout.checkpointStep(name);
    if (step.isPresent()) {
      // its checksums were taken from the bytes as they were written, and the file system's own checksums
      // (HDFS's per-chunk CRCs, the local .crc files) guard them on the way: reading them back would cost a
      // checkpoint's size at every checkpoint step
      FileStatus status = fs.getFileStatus(written);
      if (status.isFile()) {
        pointerTargets.put(pointerKey(status), writer.lastPublished());
      }
      known.put(key(status), new Folder(written, step.getAsLong(), state, null, null));
    }
    return written;
  }

  /**
   * Fails at once, with an error naming the checkpoint folder and the cause, when checkpoints could
   * not be written here: the file system unreachable, no DataNode to write to, no permission, an HDFS
   * quota that does not leave room for one block, or less free space than {@code checkpointBytes}.
   * A run checks this before training, so a full disk costs seconds, not the training time up to the
   * first checkpoint. Writes a one-byte probe file under the checkpoint folder and deletes it.
   */
  public void checkWritable(long checkpointBytes) throws IOException {
    try {
      writer.probe();
    } catch (IOException e) {
      throw StorageFailures.failure("cannot write checkpoints to " + root, e);
    }
    long free = fs.getStatus(root).getRemaining();
    if (free < checkpointBytes) {
      throw new IOException(String.format("out of space: %s has %.1f MB free, a checkpoint of this model needs about %.1f MB",
          root, free / 1e6, checkpointBytes / 1e6));
    }
  }

  /**
   * Complete checkpoints, oldest first. Temporary folders of interrupted writes are ignored;
   * checkpoints whose files are damaged or missing, or whose {@code state.json} is not a training
   * state, are skipped with a warning naming the file. A checkpoint that cannot be read (no
   * permission, a block without a live replica, the file system unreachable) is skipped with the
   * reason when a newer intact one exists; otherwise the error is thrown: it may say nothing about the
   * checkpoint, and skipping the newest would resume from an older one.
   */
  public List<Checkpoint> list() throws IOException {
    List<Folder> folders = new ArrayList<>(verifyAll());
    folders.sort(Comparator.comparingLong(Folder::step).reversed());
    List<Checkpoint> found = new ArrayList<>();
    for (Folder folder : folders) {
      if (folder.unreadable() != null && found.isEmpty()) {
        // the error may be the file system's, not the checkpoint's: the next listing reads it again
        known.values().remove(folder);
        throw new IOException("cannot read checkpoint " + folder.path() + ": " + folder.unreadable().getMessage(),
            folder.unreadable());
      }
      if (folder.problem() != null) {
        LOG.warn("skipping checkpoint {}: {}", folder.path(), folder.problem());
        continue;
      }
      found.add(new Checkpoint(folder.path(), folder.step(), folder.state()));
    }
    Collections.reverse(found);
    return found;
  }

  /** Every {@code step-N} folder that failed verification or could not be read, with what is wrong with it. */
  public Map<String, String> damaged() throws IOException {
    Map<String, String> damaged = new LinkedHashMap<>();
    for (Folder folder : verifyAll()) {
      if (folder.problem() != null) {
        damaged.put(folder.path().getName(), folder.problem());
      }
    }
    return damaged;
  }

  /**
   * A {@code step-N} folder as found: its state when it is intact, else the problem; {@code unreadable}
   * is the I/O error that made it one, null where the problem is damage.
   */
  private record Folder(Path path, long step, TrainingState state, String problem, IOException unreadable) {}

  /**
   * Every {@code step-N} folder, each read and verified only when this store has not seen it with the same
   * files before; forgets the folders that are gone.
   */
  private List<Folder> verifyAll() throws IOException {
    List<Folder> folders = new ArrayList<>();
    if (!fs.exists(root)) {
      known.clear();
      return folders;
    }
    Map<String, Folder> seen = new HashMap<>();
    for (FileStatus status : fs.listStatus(root)) {
      OptionalLong step = RunLayout.checkpointStep(status.getPath().getName());
      if ((status.isDirectory() || writer.pointers()) && step.isPresent()) {
        String key = key(status);
        Folder folder = known.get(key);
        if (folder == null) {
          folder = inspect(status.getPath(), step.getAsLong());
        }
        seen.put(key, folder);
        folders.add(folder);
      }
    }
    known.keySet().retainAll(seen.keySet());
    known.putAll(seen);
    return folders;
  }

  /**
   * A checkpoint's name and the name, length and modification time of each file in its folder: one
   * listing, no bytes read (and, for a checkpoint published by a pointer, the pointer's ETag, which a
   * replacement changes, and the folder it names, read once per ETag). A file replaced, damaged by a
   * rewrite, removed or added changes it; a folder that cannot be listed gets a key of its own each time,
   * so it is inspected (and its error reported) again.
   */
  private String key(FileStatus entry) throws IOException {
    Path folder = entry.getPath();
    StringBuilder key = new StringBuilder(folder.getName());
    if (entry.isFile()) {
      String pointer = pointerKey(entry);
      try {
        folder = pointerTargets.containsKey(pointer) ? pointerTargets.get(pointer) : writer.folderOf(folder);
      } catch (IOException e) {
        return key.append("@unreadable-").append(UUID.randomUUID()).toString();
      }
      pointerTargets.put(pointer, folder);
      key.append("@").append(pointer).append("->").append(folder.getName());
    }
    FileStatus[] files;
    try {
      files = fs.listStatus(folder);
    } catch (IOException e) {
      return key.append("@unlisted-").append(UUID.randomUUID()).toString();
    }
    Arrays.sort(files, Comparator.comparing(f -> f.getPath().getName()));
    for (FileStatus file : files) {
      key.append('/').append(file.getPath().getName()).append(file.isDirectory() ? ":dir:" : ":")
          .append(file.getLen()).append(':').append(file.getModificationTime());
    }
    return key.toString();
  }

  /** A pointer's name and version: its ETag, else its length and modification time. */
  private static String pointerKey(FileStatus pointer) {
    String etag = pointer instanceof EtagSource source ? source.getEtag() : null;
    return pointer.getPath().getName() + "@" + (etag != null ? etag : pointer.getLen() + ":" + pointer.getModificationTime());
  }

  private Folder inspect(Path path, long step) {
    try {
      Optional<String> problem = verify(path);
      if (problem.isPresent()) {
        return new Folder(path, step, null, problem.get(), null);
      }
      try {
        return new Folder(path, step, readState(path), null, null);
      } catch (JsonProcessingException e) {
        return new Folder(path, step, null, STATE + " is not a training state: " + e.getOriginalMessage(), null);
      }
    } catch (IOException e) {
      return new Folder(path, step, null, "unreadable: " + e.getMessage(), e);
    }
  }

  /** The newest complete, intact checkpoint. */
  public Optional<Checkpoint> latest() throws IOException {
    List<Checkpoint> all = list();
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /**
   * The intact checkpoint with the highest validation BLEU, ties (an early model scores 0) going to
   * the lower validation loss; where no checkpoint has a BLEU (train.valid_bleu_sentences = 0), the
   * lowest validation loss. A NaN loss or BLEU (a diverged model) is no measurement: such a
   * checkpoint never ranks as best (Double.compare would put NaN above every number).
   */
  public Optional<Checkpoint> best() throws IOException {
    return best(list());
  }

  private static Optional<Checkpoint> best(List<Checkpoint> intact) {
    Comparator<Checkpoint> byLoss = Comparator.comparingDouble(c -> -c.state().metric(RunMetric.VALID_LOSS));
    List<Checkpoint> validated = intact.stream().filter(c -> measured(c, RunMetric.VALID_LOSS)).toList();
    if (validated.stream().anyMatch(c -> measured(c, RunMetric.VALID_BLEU))) {
      return validated.stream().filter(c -> measured(c, RunMetric.VALID_BLEU))
          .max(Comparator.comparingDouble((Checkpoint c) -> c.state().metric(RunMetric.VALID_BLEU))
              .thenComparing(byLoss));
    }
    return validated.stream().max(byLoss);
  }

  private static boolean measured(Checkpoint checkpoint, RunMetric metric) {
    Double value = checkpoint.state().metric(metric);
    return value != null && !value.isNaN();
  }

  /**
   * Why the checkpoint at {@code folder} cannot be trusted, or empty if its files match their
   * checksums. Damage (a missing file, a checksum mismatch, bytes the file system's own checksums
   * reject, an unparsable {@code checksums.json}) is a reason; other I/O errors are thrown.
   */
  public Optional<String> verify(Path folder) throws IOException {
    return CheckpointChecksums.verify(files(folder), hadoop);
  }

  /** Reads {@code state.json} of a checkpoint folder. */
  public TrainingState readState(Path folder) throws IOException {
    try (InputStream in = folder.getFileSystem(hadoop).open(new Path(files(folder), STATE))) {
      return JSON.readValue(in, TrainingState.class);
    }
  }

  /** Opens {@code model.zip} of a verified checkpoint. */
  public InputStream openModel(Checkpoint checkpoint) throws IOException {
    return checkpoint.path().getFileSystem(hadoop).open(new Path(files(checkpoint.path()), MODEL));
  }

  /**
   * The folder holding the files of the checkpoint at {@code path}: the one its pointer names where
   * checkpoints are published by pointers ({@link CheckpointWriter}), else the path itself.
   */
  private Path files(Path path) throws IOException {
    java.net.URI store = fs.getUri();
    java.net.URI uri = path.makeQualified(store, fs.getWorkingDirectory()).toUri();
    boolean here = store.getScheme().equals(uri.getScheme()) && java.util.Objects.equals(store.getAuthority(), uri.getAuthority());
    return here ? writer.folderOf(path) : path;
  }

  /** Opens the outer optimizer's state of a verified checkpoint, if it has one. */
  public Optional<InputStream> openOuter(Checkpoint checkpoint) throws IOException {
    Path file = new Path(files(checkpoint.path()), OUTER);
    FileSystem checkpointFs = file.getFileSystem(hadoop);
    return checkpointFs.exists(file) ? Optional.of(checkpointFs.open(file)) : Optional.empty();
  }

  /**
   * The checkpoint a user names: {@code latest}, {@code best}, {@code step-N} (zero-padded or not, or just {@code N}),
   * another folder name under {@code RUN/checkpoints} (an averaged checkpoint), or a full path.
   * It must pass {@link #verify}.
   */
  public Checkpoint resolve(String spec) throws IOException {
    Optional<Checkpoint> found = switch (spec) {
      case "latest" -> latest();
      case "best" -> best();
      default -> Optional.of(folder(spec));
    };
    return found.orElseThrow(() -> new UsageException(
        "--checkpoint " + spec + ": no intact checkpoint under " + root));
  }

  private Checkpoint folder(String spec) throws IOException {
    String prefix = RunLayout.CHECKPOINT_PREFIX;
    Path folder = spec.matches("\\d+") ? layout.checkpoint(Long.parseLong(spec))
        : spec.matches(prefix + "\\d+") ? layout.checkpoint(Long.parseLong(spec.substring(prefix.length())))
        : spec.contains("/") ? new Path(spec) : new Path(root, spec);
    if (!folder.getFileSystem(hadoop).exists(folder)) {
      throw new UsageException("--checkpoint " + spec + ": " + folder + " does not exist");
    }
    Optional<String> problem = verify(folder);
    if (problem.isPresent()) {
      throw new IllegalArgumentException("--checkpoint " + spec + ": " + folder + " is damaged: " + problem.get());
    }
    TrainingState state = readState(folder);
    return new Checkpoint(folder, state.step(), state);
  }

  /**
   * Deletes all but the newest {@code keepLast} checkpoints and the best one; also removes the
   * temporary folders and probes of this store's own interrupted writes. Those of other writers stay:
   * one may still be writing (see {@link #removeLeftovers}).
   */
  public void prune(int keepLast) throws IOException {
    List<Checkpoint> all = list();
    Optional<Checkpoint> best = best(all);
    for (int i = 0; i < all.size() - keepLast; i++) {
      Checkpoint old = all.get(i);
      if (best.isEmpty() || best.get().step() != old.step()) {
        delete(old.path());
      }
    }
    writer.removeOwnLeftovers();
  }

  /**
   * Deletes an old checkpoint; one that cannot be deleted (no permission) stays with a warning: the new
   * checkpoint is written, and failing the run for an old one would lose the training since.
   */
  private void delete(Path old) {
    try {
      if (!writer.remove(old)) {
        LOG.warn("could not delete old checkpoint {}; it stays", old);
      }
    } catch (IOException e) {
      LOG.warn("could not delete old checkpoint {}: {}; it stays", old, e.getMessage());
    }
  }

  /**
   * Removes the temporary folders and probes of every writer: only for the holder of the run's lock
   * when no other writer can be alive (it took a free or a stale lock, not a broken one).
   */
  public void removeLeftovers() throws IOException {
    writer.removeAllLeftovers();
  }
}
