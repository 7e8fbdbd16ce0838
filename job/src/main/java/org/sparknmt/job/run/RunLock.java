package org.sparknmt.job.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.job.checkpoint.StorageFailures;

/**
 * One writer per run directory: {@code RUN/.lock}, created only where no file of that name exists
 * and held open until {@link #close()}, which deletes it. On HDFS the creation is one NameNode
 * operation and the open file is a lease that the holder's client renews while it lives; on the
 * local file system the file is created with {@code O_EXCL}. The file holds who took it (host, pid,
 * start time, command), which a second writer's error names.
 *
 * <p>A holder that died leaves the file behind. When it ran on this host and its process is gone
 * (no process with its pid, or one started after the lock), the lock is stale and taken over with a
 * warning, so that rerunning a killed command needs nothing more. A holder on another host cannot be
 * checked from here: its lock is broken with {@code --break-lock}, after making sure it no longer runs.
 */
public final class RunLock implements AutoCloseable {
  public static final String FILE = ".lock";
  private static final Logger LOG = LoggerFactory.getLogger(RunLock.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Who holds a lock. */
  public record Holder(String id, String host, long pid, String started, String command) {
    static Holder current(String command) {
      return new Holder(UUID.randomUUID().toString(), hostName(), ProcessHandle.current().pid(),
          Instant.now().toString(), command);
    }

    /** Whether this holder ran on this host and its process has ended. */
    boolean deadOnThisHost() {
      if (!host.equals(hostName())) {
        return false;
      }
      Optional<Instant> processStart = ProcessHandle.of(pid).flatMap(p -> p.info().startInstant());
      try {
        // no such process, or one started after the lock: the pid was reused
        return ProcessHandle.of(pid).isEmpty()
            || processStart.isPresent() && processStart.get().isAfter(Instant.parse(started));
      } catch (DateTimeParseException e) {
        return false; // a lock file edited by hand: nothing proves its holder dead
      }
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
  private final boolean broken;

  private RunLock(FileSystem fs, Path file, Holder holder, OutputStream stream, boolean broken) {
    this.fs = fs;
    this.file = file;
    this.holder = holder;
    this.stream = stream;
    this.broken = broken;
  }

  /**
   * Takes the lock of run {@code runUri} for {@code command}, or fails at once with {@link Held}
   * naming the lock file, its holder and how to break it.
   *
   * @param breakLock delete a lock that another writer holds (the user has made sure it no longer runs)
   */
  public static RunLock acquire(String runUri, String command, boolean breakLock, Configuration hadoop)
      throws IOException {
    Path file = new Path(runUri, FILE);
    FileSystem fs = file.getFileSystem(hadoop);
    fs.mkdirs(file.getParent());
    Holder me = Holder.current(command);
    IOException refusal;
    try {
      return create(fs, file, me, false);
    } catch (LockFileExists e) {
      refusal = e;
    }
    Optional<Holder> other = read(fs, file);
    String who = other.map(Holder::toString).orElse("an unknown writer (the lock file is empty or unreadable)");
    if (breakLock || other.isPresent() && other.get().deadOnThisHost()) {
      LOG.warn("{} {} of {}", breakLock ? "--break-lock: breaking the lock" : "taking over the stale lock", file, who);
      fs.delete(file, false);
      try {
        return create(fs, file, me, breakLock);
      } catch (LockFileExists e) {
        refusal = e;
        who = read(fs, file).map(Holder::toString).orElse("an unknown writer");
      }
    }
    throw new Held(file + " is held by " + who + lease(refusal.getCause()) + ": only one prepare, train or average may "
        + "write to a run at a time. Wait for it to finish, or if it no longer runs (killed on another host), rerun "
        + "with --break-lock");
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
    try {
      stream.close();
    } catch (IOException e) {
      LOG.warn("closing the lock {}: {}", file, e.getMessage());
    }
    Optional<Holder> now = read(fs, file);
    if (now.isPresent() && now.get().id().equals(holder.id())) {
      fs.delete(file, false);
    } else {
      LOG.warn("the lock {} was broken while this run held it; it is now held by {}; left alone", file,
          now.map(Holder::toString).orElse("nobody"));
    }
  }

  /** The lock file exists: {@code getCause()} is how the file system refused to create it. */
  private static final class LockFileExists extends IOException {
    LockFileExists(IOException refusal) {
      super(refusal);
    }
  }

  private static RunLock create(FileSystem fs, Path file, Holder me, boolean broken) throws IOException {
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
    return new RunLock(fs, file, me, stream, broken);
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

  /** A new file, failing when one exists: O_EXCL locally, where Hadoop's own check-then-create would race. */
  private static OutputStream createNew(FileSystem fs, Path file) throws IOException {
    if (fs instanceof LocalFileSystem local) {
      return Files.newOutputStream(local.pathToFile(file).toPath(), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
    }
    return fs.create(file, false);
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

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
