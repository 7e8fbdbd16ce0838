package org.sparknmt.base.files;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The process that writes something (a run's lock, an output's hidden parts), told apart well enough
 * that another process can prove it has ended: its host, pid, pid namespace and start in clock ticks
 * since boot (which a step of the wall clock does not move).
 *
 * @param host the host name, "unknown" where it did not resolve
 * @param pidNamespace the {@code /proc/self/ns/pid} link ("pid:[4026531836]"): containers that share a
 *     host name differ in it; null where there is no {@code /proc}
 * @param startTicks the start in clock ticks since boot ({@code /proc/self/stat} field 22); 0 where unknown
 */
public record WriterProcess(String host, long pid, String pidNamespace, long startTicks) {
  /** This process. */
  public static WriterProcess current() {
    long pid = ProcessHandle.current().pid();
    return new WriterProcess(hostName(), pid, currentPidNamespace(), processStartTicks(pid).orElse(0));
  }

  /**
   * Whether this process can prove that that one has ended: it ran on this host (a name that resolved),
   * in this pid namespace, and no process with its pid and start ticks exists, where {@code /proc} shows
   * other processes ({@code hidepid} would hide a live one). Anything less proves nothing.
   */
  public boolean provablyGone() {
    if (host.equals("unknown") || !host.equals(hostName()) || startTicks <= 0 || pidNamespace == null
        || !pidNamespace.equals(currentPidNamespace()) || !Files.isReadable(Path.of("/proc/1/stat"))) {
      return false;
    }
    OptionalLong now = processStartTicks(pid);
    return now.isEmpty() ? !Files.exists(Path.of("/proc", Long.toString(pid))) : now.getAsLong() != startTicks;
  }

  /** This process's pid namespace, or null without {@code /proc}. */
  static String currentPidNamespace() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** Field 22 of {@code /proc/PID/stat}: the process's start in clock ticks since boot; empty if not readable. */
  public static OptionalLong processStartTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return OptionalLong.of(Long.parseLong(fields[19]));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** This host's name, "unknown" where it does not resolve. */
  public static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
