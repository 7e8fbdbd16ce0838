package org.sparknmt.base.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.ConditionalWrites;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.StorageFailures;
import org.sparknmt.base.files.WriterProcess;

/**
 * One writer per run directory: {@code RUN/.lock}, created only where no file of that name exists
 * and held until {@link #close()}, which deletes it. On HDFS the creation is one NameNode operation
 * and the open file is a lease that the holder's client renews while it lives; on the local file
 * system the file is created with {@code O_EXCL} and holds an OS lock ({@code fcntl}) that the kernel
 * releases when the holder's process ends, however it ends. On an object store the lock is one
 * conditional write, which the store refuses where the object exists (S3A with
 * {@code fs.s3a.create.conditional.enabled}: If-None-Match: *); a store whose client offers no such write
 * ({@link ConditionalWrites#available}) is refused, naming the scheme and the setting. The file
 * holds who took it (host, pid, start time, command), which a second writer's error names.
 *
 * <p>A holder that died leaves the file behind. Locally its OS lock is gone with it: the next writer
 * takes that lock on the same file and rewrites the holder, so two takers cannot both win. On HDFS the
 * holder is gone only when this process can prove it ({@link Holder#provablyGone}: same host name,
 * same pid namespace, a {@code /proc} that shows other processes, and no process with its pid and
 * start time in clock ticks since boot, which a wall-clock step does not move); the stale file is then
 * renamed to a name made of the dead holder's id, which only one taker can do, before a new one is
 * created; on an object store the stale object is overwritten on condition that it still has the ETag the
 * taker read (If-Match), which again only one taker can do. A holder on another host cannot be checked
 * from here: its lock is broken with
 * {@code --break-lock}, after making sure it no longer runs.
 */
public final class RunLock implements AutoCloseable {
  private static final String S3A_CONDITIONAL_CREATE = "fs.s3a.create.conditional.enabled";
  private static final Logger LOG = LoggerFactory.getLogger(RunLock.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Who holds a lock.
   *
   * @param pidNamespace the holder's {@code /proc/self/ns/pid} link ("pid:[4026531836]"): containers that share a
   *     host name differ in it; null where there is no {@code /proc}
   * @param startTicks the holder's start in clock ticks since boot ({@code /proc/self/stat} field 22); 0 where unknown
   */
  public record Holder(String id, String host, long pid, String started, String command, String pidNamespace,
      long startTicks) {
    static Holder current(String command) {
      WriterProcess process = WriterProcess.current();
      return new Holder(UUID.randomUUID().toString(), process.host(), process.pid(), Instant.now().toString(), command,
          process.pidNamespace(), process.startTicks());
    }

    /**
     * Whether this process can prove that this holder's process has ended ({@link WriterProcess#provablyGone}).
     * Anything less proves nothing: the lock then stays until {@code --break-lock}.
     */
    boolean provablyGone() {
      return new WriterProcess(host, pid, pidNamespace, startTicks).provablyGone();
    }

    @Override
    public String toString() {
      return "sparknmt " + command + " on host " + host + ", pid " + pid + ", started " + started;
    }
  }

  /** A second writer: the lock file, and its holder where the file says. */
  public static final class Held extends IOException {
    Held(String message) {
      super(message);
    }
  }

  private final FileSystem fs;
  private final Path file;
  private final Holder holder;
  private final OutputStream stream;
  /**
   * The local lock file's channel, which holds its OS lock; null on HDFS. The file is read through it only:
   * closing any other descriptor of the file would release this process's lock (POSIX record locks).
   */
  private final FileChannel channel;
  private final boolean broken;
  /** The stale lock file this one replaced on HDFS, kept aside until {@link #close} so no second taker can win. */
  private final Path aside;

  private RunLock(FileSystem fs, Path file, Holder holder, OutputStream stream, boolean broken, Path aside) {
    this.fs = fs;
    this.file = file;
    this.holder = holder;
    this.stream = stream;
    this.channel = stream instanceof LockedFile locked ? locked.channel : null;
    this.broken = broken;
    this.aside = aside;
  }

  /**
   * Takes the lock of run {@code runUri} for {@code command}, or fails at once with {@link Held}
   * naming the lock file, its holder and how to break it.
   *
   * @param breakLock delete a lock that another writer holds (the user has made sure it no longer runs)
   */
  public static RunLock acquire(String runUri, String command, boolean breakLock, Configuration hadoop)
      throws IOException {
    RunLayout layout = RunLayout.of(runUri);
    Path file = layout.lock();
    FileSystem fs = file.getFileSystem(hadoop);
    if (objectStore(fs) && !ConditionalWrites.available(fs, file)) {
      throw new UsageException(noConditionalCreate(runUri, fs.getUri().getScheme()));
    }
    fs.mkdirs(file.getParent());
    Holder me = Holder.current(command);
    IOException refusal;
    try {
      return create(fs, file, me, false, null);
    } catch (LockFileExists e) {
      refusal = e;
    }
    if (!breakLock && DurableFiles.localFileSystem(fs) != null) {
      Optional<RunLock> taken = takeOverLocal(fs, file, me);
      if (taken.isPresent()) {
        return taken.get();
      }
    }
    Optional<Holder> other = read(fs, file);
    String who = other.map(Holder::toString).orElse("an unknown writer (the lock file is empty or unreadable)");
    if (breakLock) {
      LOG.warn("--break-lock: breaking the lock {} of {}", file, who);
      fs.delete(file, false);
      try {
        return create(fs, file, me, true, null);
      } catch (LockFileExists e) {
        refusal = e;
        who = read(fs, file).map(Holder::toString).orElse("an unknown writer");
      }
    } else if (other.isPresent() && objectStore(fs) && other.get().provablyGone()) {
      Optional<String> etag = ConditionalWrites.etag(fs, file);
      if (etag.isPresent()) {
        LOG.warn("taking over the stale lock {} of {}: its process has ended", file, who);
        try {
          return createObject(fs, file, me, false, () -> ConditionalWrites.replace(fs, file, etag.get()));
        } catch (LockFileExists e) {
          // another taker replaced the stale lock first: its ETag no longer matched
          refusal = e;
        }
        who = read(fs, file).map(Holder::toString).orElse("an unknown writer");
      }
    } else if (other.isPresent() && DurableFiles.localFileSystem(fs) == null && other.get().provablyGone()) {
      // only one taker can rename the file of this dead holder to this name; a later one finds it taken
      Path aside = layout.staleLock(other.get().id());
      if (fs.rename(file, aside)) {
        LOG.warn("taking over the stale lock {} of {}: its process has ended", file, who);
        try {
          return create(fs, file, me, false, aside);
        } catch (LockFileExists e) {
          refusal = e;
        }
      }
      who = read(fs, file).map(Holder::toString).orElse("an unknown writer");
    }
    throw new Held(file + " is held by " + who + lease(refusal.getCause()) + ": only one prepare, train or average may "
        + "write to a run at a time. Wait for it to finish, or if it no longer runs (killed on another host), rerun "
        + "with --break-lock");
  }

  /**
   * Takes the OS lock of an existing local lock file, which succeeds only when its holder's process has
   * ended, and rewrites the holder; empty while a live process holds it. The file must still be the one
   * at {@code file} once locked: a holder deletes it before it releases the lock.
   */
  private static Optional<RunLock> takeOverLocal(FileSystem fs, Path file, Holder me) throws IOException {
    java.nio.file.Path path = DurableFiles.localFileSystem(fs).pathToFile(file).toPath();
    Object before;
    FileChannel channel;
    try {
      before = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this very JVM
      }
      if (lock == null || !Files.exists(path)
          || !before.equals(Files.readAttributes(path, BasicFileAttributes.class).fileKey())) {
        channel.close();
        return Optional.empty();
      }
      String who = read(channel).map(Holder::toString).orElse("an unknown writer");
      LOG.warn("taking over the stale lock {} of {}: its process no longer holds it", file, who);
      channel.truncate(0);
      OutputStream stream = new LockedFile(channel);
      stream.write(JSON.writeValueAsBytes(me));
      channel.force(true);
      return Optional.of(new RunLock(fs, file, me, stream, false, null));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * What HDFS's refusal to create the lock file says about its holder, which matters most for a holder
   * on another host: whose Hadoop client still renews the file's lease (it runs, or ran less than a
   * minute ago), or stopped over a minute ago (the soft limit), or whose file HDFS has closed.
   */
  private static String lease(Throwable refusal) {
    String type = refusal instanceof RemoteException remote ? remote.getClassName() : refusal.getClass().getName();
    if (type.endsWith(".AlreadyBeingCreatedException")) {
      return " (its HDFS lease is live: the holder's client renewed it within the last minute)";
    }
    if (type.endsWith(".RecoveryInProgressException")) {
      return " (its HDFS lease has expired: the holder's client has not renewed it for over a minute; "
          + "it is probably gone)";
    }
    if (refusal instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
      return " (HDFS has closed the lock file: its holder no longer holds it open)";
    }
    return "";
  }

  /** This lock's holder: this process. */
  public Holder holder() {
    return holder;
  }

  public Path file() {
    return file;
  }

  /** Whether this lock was taken with --break-lock from a holder that may still run (and write). */
  public boolean broken() {
    return broken;
  }

  /** Releases the lock: closes the file and deletes it, unless another writer broke the lock and holds it now. */
  @Override
  public void close() throws IOException {
    Optional<Holder> now = channel != null ? read(channel) : read(fs, file);
    if (now.isPresent() && now.get().id().equals(holder.id())) {
      // locally the OS lock is released only by closing the stream, after the file is gone: a writer
      // waiting for it then finds no file, not a deleted one it could lock
      fs.delete(file, false);
    } else {
      LOG.warn("the lock {} was broken while this run held it; it is now held by {}; left alone", file,
          now.map(Holder::toString).orElse("nobody"));
    }
    try {
      stream.close();
    } catch (IOException e) {
      LOG.warn("closing the lock {}: {}", file, e.getMessage());
    }
    if (aside != null) {
      fs.delete(aside, false);
    }
  }

  /** Neither HDFS nor a local file system: the lock is a conditional write ({@link ConditionalWrites}). */
  private static boolean objectStore(FileSystem fs) {
    return !(fs instanceof DistributedFileSystem) && DurableFiles.localFileSystem(fs) == null;
  }

  private static String noConditionalCreate(String runUri, String scheme) {
    String fix = scheme.equals("s3a")
        ? "set " + S3A_CONDITIONAL_CREATE + "=true (the default of hadoop-aws 3.5; spark.hadoop."
            + S3A_CONDITIONAL_CREATE + " on Spark) on a store that honours If-None-Match (Amazon S3 does since 2024), "
            + "with hadoop-aws 3.5 or later on the classpath"
        : "prepare, train and average write a run on HDFS, a local (or NFS) file system, or s3a:// with "
            + S3A_CONDITIONAL_CREATE + "=true; copy the run there (translate and evaluate read it from anywhere)";
    return "--run " + runUri + ": " + scheme + ":// offers no conditional create (" + ConditionalWrites.CREATE + "), so the "
        + "run lock (RUN/.lock) would not keep a second writer out: " + fix;
  }

  /** The lock file exists: {@code getCause()} is how the file system refused to create it. */
  private static final class LockFileExists extends IOException {
    LockFileExists(IOException refusal) {
      super(refusal);
    }
  }

  private static RunLock create(FileSystem fs, Path file, Holder me, boolean broken, Path aside) throws IOException {
    if (objectStore(fs)) {
      return createObject(fs, file, me, broken, () -> ConditionalWrites.create(fs, file));
    }
    OutputStream stream;
    try {
      stream = createNew(fs, file);
    } catch (IOException e) {
      if (fs.exists(file)) {
        throw new LockFileExists(e);
      }
      throw new IOException("cannot create the run lock " + file + ": " + e.getMessage(), e);
    }
    try {
      stream.write(JSON.writeValueAsBytes(me));
      if (stream instanceof FSDataOutputStream hadoopStream) {
        // makes the holder readable to a second writer while the file stays open (the HDFS lease)
        hadoopStream.hflush();
      } else {
        stream.flush();
      }
    } catch (IOException e) {
      // the first bytes of a run's writes: an exhausted HDFS quota or a full disk shows here first
      abandon(fs, file, stream);
      throw StorageFailures.failure("cannot take the run lock " + file, e);
    }
    return new RunLock(fs, file, me, stream, broken, aside);
  }

  /**
   * The lock as one conditional write: the object appears, holder and all, at {@code close()} only if the
   * condition of {@code write} still holds then (If-None-Match: * for a new lock, If-Match with the stale
   * lock's ETag for a takeover); the store refuses every other writer with 412, whatever they checked before.
   */
  private static RunLock createObject(FileSystem fs, Path file, Holder me, boolean broken, ConditionalStream write)
      throws IOException {
    FSDataOutputStream stream;
    try {
      stream = write.open();
    } catch (IOException e) {
      if (fs.exists(file)) {
        throw new LockFileExists(e);
      }
      throw StorageFailures.failure("cannot take the run lock " + file, e);
    }
    try {
      stream.write(JSON.writeValueAsBytes(me));
      stream.close();
    } catch (IOException e) {
      // nothing of this writer's is in the store: a refused or failed write leaves no object to delete
      if (fs.exists(file)) {
        throw new LockFileExists(e);
      }
      throw StorageFailures.failure("cannot take the run lock " + file, e);
    }
    return new RunLock(fs, file, me, stream, broken, null);
  }

  /** Opens a {@link ConditionalWrites} stream. */
  @FunctionalInterface
  private interface ConditionalStream {
    FSDataOutputStream open() throws IOException;
  }

  /** Closes and deletes a lock file this process created but could not write; the write's error is what counts. */
  private static void abandon(FileSystem fs, Path file, OutputStream stream) {
    try {
      stream.close();
    } catch (IOException ignored) {
      // the same failure as the write's, reported by the caller
    }
    try {
      fs.delete(file, false);
    } catch (IOException e) {
      LOG.warn("could not delete the run lock {} after a failed write: {}", file, e.getMessage());
    }
  }

  /**
   * A new file, failing when one exists: O_EXCL locally, where Hadoop's own check-then-create would race,
   * with the OS lock that marks its holder alive.
   */
  private static OutputStream createNew(FileSystem fs, Path file) throws IOException {
    RawLocalFileSystem local = DurableFiles.localFileSystem(fs);
    if (local != null) {
      FileChannel channel = FileChannel.open(local.pathToFile(file).toPath(), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.READ, StandardOpenOption.WRITE);
      if (channel.tryLock() == null) {
        channel.close();
        throw new IOException("the new lock file " + file + " is locked by another process");
      }
      return new LockedFile(channel);
    }
    return fs.create(file, false);
  }

  /** A local lock file's stream, which keeps its channel (and so the OS lock) for the holder's reads. */
  private static final class LockedFile extends java.io.FilterOutputStream {
    final FileChannel channel;

    LockedFile(FileChannel channel) {
      super(Channels.newOutputStream(channel));
      this.channel = channel;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }
  }

  private static Optional<Holder> read(FileChannel channel) {
    try {
      ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(Math.min(channel.size(), 1 << 16)));
      while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0) {
        // positional reads leave the channel's position, where the holder was written, alone
      }
      return Optional.of(JSON.readValue(bytes.array(), 0, bytes.position(), Holder.class));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Holder> read(FileSystem fs, Path file) {
    try (InputStream in = fs.open(file)) {
      return Optional.of(JSON.readValue(in, Holder.class));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      LOG.warn("cannot read the run lock {}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }
}
