package org.sparknmt.base.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hidden files a write of an output keeps beside it while it runs, and their removal once their
 * writer is dead. A write of {@code NAME} uses {@code .NAME.parts-ID} (the executors' part files) and
 * {@code .NAME.tmp-ID} (the whole file before the rename that publishes it), where the ID names the
 * write: {@code UUID_STARTMILLIS_PID_STARTTICKS_PIDNAMESPACE_HOST}. A driver killed mid-write leaves
 * them; a later write in the same folder removes those whose writer is provably gone
 * ({@link WriterProcess#provablyGone}), and those of its own output name that started before it
 * (a driver on another host cannot be proven gone, but two writes of one output do not both finish
 * well). A live writer of another output is never touched.
 */
public final class WriteLeftovers {
  private static final Logger LOG = LoggerFactory.getLogger(WriteLeftovers.class);
  private static final Pattern HIDDEN =
      Pattern.compile("\\.(.+)\\.(?:parts|tmp)-([0-9a-f-]{36})_(\\d+)_(\\d+)_(\\d+)_(\\d+)_(.+)");
  private static final Pattern NAMESPACE = Pattern.compile("pid:\\[(\\d+)]");

  private WriteLeftovers() {}

  /** One write: its id, when it started and which process runs it. */
  public record Write(String id, long startMillis, WriterProcess process) {
    /** A write that starts now in this process. */
    public static Write start() {
      return new Write(UUID.randomUUID().toString(), System.currentTimeMillis(), WriterProcess.current());
    }

    /** The folder of the executors' part files for {@code target}. */
    public Path parts(Path target) {
      return hidden(target, "parts");
    }

    /** The whole file before it takes {@code target}'s name. */
    public Path partial(Path target) {
      return hidden(target, "tmp");
    }

    private Path hidden(Path target, String kind) {
      Matcher namespace = NAMESPACE.matcher(process.pidNamespace() == null ? "" : process.pidNamespace());
      return new Path(target.getParent(), "." + target.getName() + "." + kind + "-" + id + "_" + startMillis + "_"
          + process.pid() + "_" + process.startTicks() + "_" + (namespace.matches() ? namespace.group(1) : "0") + "_"
          + process.host());
    }
  }

  /**
   * Removes from {@code folder} the hidden files of other writes whose writer is provably gone, or that
   * wrote {@code ownName} (null: none) and started before {@code own}; logs one line naming what it
   * removed. A leftover that cannot be removed stays, with a warning: it does not fail the write.
   *
   * @return what it removed
   */
  public static List<Path> remove(FileSystem fs, Path folder, Write own, String ownName) throws IOException {
    FileStatus[] entries;
    try {
      entries = fs.listStatus(folder, path -> path.getName().startsWith("."));
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<Path> removed = new ArrayList<>();
    for (FileStatus entry : entries) {
      Matcher name = HIDDEN.matcher(entry.getPath().getName());
      if (!name.matches() || name.group(2).equals(own.id())) {
        continue;
      }
      WriterProcess writer = new WriterProcess(name.group(7), Long.parseLong(name.group(4)),
          name.group(6).equals("0") ? null : "pid:[" + name.group(6) + "]", Long.parseLong(name.group(5)));
      boolean earlierOfOwn = name.group(1).equals(ownName) && Long.parseLong(name.group(3)) < own.startMillis();
      if (earlierOfOwn || writer.provablyGone()) {
        try {
          fs.delete(entry.getPath(), true);
          removed.add(entry.getPath());
        } catch (IOException e) {
          LOG.warn("could not remove {}, left by a killed write: {}; it stays", entry.getPath(),
              StorageFailures.describe(e));
        }
      }
    }
    if (!removed.isEmpty()) {
      LOG.info("removed {} leftover(s) of killed writes in {}: {}", removed.size(), folder,
          String.join(", ", removed.stream().map(Path::getName).toList()));
    }
    return removed;
  }
}
