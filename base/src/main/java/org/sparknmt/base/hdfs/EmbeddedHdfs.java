package org.sparknmt.base.hdfs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS (NameNode + one DataNode) inside this JVM, for the embedded default and for tests.
 * It needs {@code hadoop-client-minicluster} on the classpath: the local-run classpath and the
 * test classpath have it, the spark-submit jar does not.
 */
public final class EmbeddedHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;

  private EmbeddedHdfs(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Starts NameNode and DataNode with their storage under {@code baseDir}, replication 1. With
   * {@code format} false the storage already there is reused, so data survives a restart.
   */
  public static EmbeddedHdfs start(Path baseDir, boolean format) throws IOException {
    return start(baseDir, format, 0);
  }

  /**
   * As {@link #start(Path, boolean)}, with the NameNode on {@code port} (0: any free one), so that
   * {@code hdfs://127.0.0.1:PORT/...} URIs stay valid across restarts.
   */
  public static EmbeddedHdfs start(Path baseDir, boolean format, int port) throws IOException {
    return start(baseDir, format, port, Map.of());
  }

  /** As {@link #start(Path, boolean, int)}, with more settings of the NameNode and DataNode (a test's audit logger). */
  public static EmbeddedHdfs start(Path baseDir, boolean format, int port, Map<String, String> settings)
      throws IOException {
    Configuration conf = new Configuration();
    settings.forEach(conf::set);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toAbsolutePath().toString());
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.permissions.enabled", false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
        .numDataNodes(1)
        .format(format)
        .nameNodePort(port)
        .manageNameDfsDirs(true)
        .manageDataDfsDirs(true)
        .build();
    cluster.waitActive();
    return new EmbeddedHdfs(cluster);
  }

  /** The file system URI, e.g. {@code hdfs://localhost:41234}. */
  public URI uri() {
    return cluster.getURI();
  }

  /** A Hadoop URI string for an absolute {@code path} on this HDFS. */
  public String path(String path) {
    return uri() + (path.startsWith("/") ? path : "/" + path);
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
