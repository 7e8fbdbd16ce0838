package org.sparknmt.datasets.hdfs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
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
   * Starts NameNode and DataNode with their storage under {@code baseDir}, replication 1. An
   * existing {@code baseDir} is reused (not formatted), so data survives a restart of the embedded default.
   */
  public static EmbeddedHdfs start(Path baseDir, boolean format) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toAbsolutePath().toString());
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.permissions.enabled", false);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
        .numDataNodes(1)
        .format(format)
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
