package org.sparknmt.testkit;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.sparknmt.base.hdfs.EmbeddedHdfs;

/**
 * A real in-process HDFS shared by the tests of one class.
 *
 * <p>Register with {@code @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();}.
 */
public final class MiniHdfs implements BeforeAllCallback, AfterAllCallback {
  private final Map<String, String> settings;
  private EmbeddedHdfs hdfs;

  public MiniHdfs() {
    this(Map.of());
  }

  /** With more settings of the NameNode and DataNode ({@link NameNodeAudit} as an audit logger). */
  public MiniHdfs(Map<String, String> settings) {
    this.settings = settings;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    hdfs = EmbeddedHdfs.start(BuildDirs.fresh("hdfs-" + context.getRequiredTestClass().getSimpleName()), true, 0, settings);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  /** The running HDFS: its URI, paths on it, and the MiniDFSCluster for fault tests. */
  public EmbeddedHdfs hdfs() {
    return hdfs;
  }

  /** A Hadoop URI string for an absolute {@code path} on this HDFS. */
  public String path(String path) {
    return hdfs.path(path);
  }
}
