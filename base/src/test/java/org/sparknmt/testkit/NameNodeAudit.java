package org.sparknmt.testkit;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;

/**
 * The NameNode's own count of the operations it served, per command and path, from its audit log:
 * how often a file was opened ({@code open}: each block-location lookup, the DFS client's retries
 * included). Register with {@code new MiniHdfs(Map.of(NameNodeAudit.KEY, NameNodeAudit.class.getName()))}.
 */
public final class NameNodeAudit implements AuditLogger {
  public static final String KEY = "dfs.namenode.audit.loggers";
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  /** The instance the NameNode of {@code cluster} logs to. */
  public static NameNodeAudit of(MiniDFSCluster cluster) {
    return cluster.getNamesystem().getAuditLoggers().stream().filter(NameNodeAudit.class::isInstance)
        .map(NameNodeAudit.class::cast).findFirst()
        .orElseThrow(() -> new IllegalStateException("the NameNode was started without " + KEY + " = NameNodeAudit"));
  }

  @Override
  public void initialize(Configuration conf) {}

  @Override
  public void logAuditEvent(boolean succeeded, String user, InetAddress address, String command, String source,
      String destination, FileStatus status) {
    counts.computeIfAbsent(command + " " + source, k -> new AtomicLong()).incrementAndGet();
  }

  /** How often {@code command} ("open", "listStatus" ...) was served for the absolute HDFS path {@code path}. */
  public long count(String command, String path) {
    AtomicLong count = counts.get(command + " " + path);
    return count == null ? 0 : count.get();
  }
}
