package org.sparknmt.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.sparknmt.base.files.WriterProcess;

/**
 * The hidden names that writes of an output use, spelled out as {@link WriteLeftovers} documents them
 * ({@code .NAME.parts-UUID_STARTMILLIS_PID_STARTTICKS_PIDNAMESPACE_HOST}, the same with {@code .tmp-}), for
 * writers that tests make up: a process of this host that has ended, this very process, one on another host.
 */
public final class HiddenWrites {
  private HiddenWrites() {}

  /** A process of this host, in this pid namespace, that ran and was killed. */
  public static WriterProcess killed() throws IOException, InterruptedException {
    Process sleeper = new ProcessBuilder("sleep", "600").start();
    long ticks = WriterProcess.processStartTicks(sleeper.pid()).orElseThrow();
    sleeper.destroyForcibly();
    if (!sleeper.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("sleep " + sleeper.pid() + " did not end");
    }
    return new WriterProcess(WriterProcess.hostName(), sleeper.pid(), namespace(), ticks);
  }

  /** This process. */
  public static WriterProcess alive() throws IOException {
    long pid = ProcessHandle.current().pid();
    return new WriterProcess(WriterProcess.hostName(), pid, namespace(), WriterProcess.processStartTicks(pid).orElseThrow());
  }

  /** A process on another host: nothing this one can check. */
  public static WriterProcess elsewhere() {
    return new WriterProcess("far-host.example", 4242, "pid:[4026531836]", 12345);
  }

  /** The hidden name {@code kind} ("parts" or "tmp") of a write of {@code output} started at {@code startMillis}. */
  public static String name(String output, String kind, long startMillis, WriterProcess writer) {
    String namespace = writer.pidNamespace().replaceAll("\\D", "");
    return "." + output + "." + kind + "-" + UUID.randomUUID() + "_" + startMillis + "_" + writer.pid() + "_"
        + writer.startTicks() + "_" + namespace + "_" + writer.host();
  }

  private static String namespace() throws IOException {
    return Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/pid")).toString();
  }
}
