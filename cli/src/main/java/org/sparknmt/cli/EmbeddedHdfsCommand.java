package org.sparknmt.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.hdfs.EmbeddedHdfs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt hdfs}: a real HDFS (NameNode + DataNode) in this JVM on a fixed port, serving
 * until stopped, so the embedded default's commands can all read and write {@code hdfs://} URIs.
 * Storage survives a restart: it is formatted only the first time.
 */
@Command(name = "hdfs", mixinStandardHelpOptions = true,
    description = "Serve an embedded HDFS (NameNode + DataNode in this JVM) on 127.0.0.1:PORT until stopped (Ctrl-C, SIGTERM).")
public final class EmbeddedHdfsCommand implements Callable<Integer> {
  /** Written after the first format; its presence means the storage is ours to reuse. */
  static final String FORMATTED_MARKER = ".sparknmt-formatted";

  @Option(names = "--dir", defaultValue = "runs/embedded-hdfs", paramLabel = "DIR", description = "Storage folder. Default: ${DEFAULT-VALUE}.")
  Path dir;

  @Option(names = "--port", defaultValue = "9000", paramLabel = "PORT", description = "NameNode port. Default: ${DEFAULT-VALUE}.")
  int port;

  @Override
  public Integer call() throws Exception {
    if (port <= 0 || port > 65535) {
      throw new UsageException("--port must be 1..65535, got " + port);
    }
    Path marker = dir.resolve(FORMATTED_MARKER);
    boolean format = !Files.exists(marker);
    Files.createDirectories(dir);
    EmbeddedHdfs hdfs = EmbeddedHdfs.start(dir, format, port);
    Runtime.getRuntime().addShutdownHook(new Thread(hdfs::close));
    if (format) {
      Files.writeString(marker, "formatted by sparknmt hdfs\n");
    }
    System.out.printf("hdfs: ready at hdfs://127.0.0.1:%d (storage %s%s); stop with Ctrl-C%n", port,
        dir.toAbsolutePath(), format ? ", new" : "");
    System.out.flush();
    // serves until the JVM is stopped; the shutdown hook stops the daemons cleanly
    new CountDownLatch(1).await();
    return 0;
  }
}
