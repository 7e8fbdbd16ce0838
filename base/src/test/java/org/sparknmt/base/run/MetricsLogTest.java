package org.sparknmt.base.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.MiniHdfs;

/** The metrics file is replaced so that neither a reader nor a kill ever finds the run without it. */
class MetricsLogTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();

  @Test
  void onHdfsTheFileIsNeverMissingWhileItIsRewritten() throws Exception {
    String run = HDFS.path("/metrics-run");
    Configuration conf = new Configuration();
    MetricsLog log = MetricsLog.open(run, "train", 0, conf);
    log.add(1, Map.of("loss", 9.0));
    log.flush();
    Path file = new Path(run + "/metrics/train.jsonl");
    FileSystem fs = file.getFileSystem(conf);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger checks = new AtomicInteger();
    AtomicInteger missing = new AtomicInteger();
    Thread reader = new Thread(() -> {
      while (writing.get()) {
        try {
          if (!fs.exists(file)) {
            missing.incrementAndGet();
          }
          checks.incrementAndGet();
        } catch (IOException e) {
          throw new AssertionError(e);
        }
      }
    });
    reader.start();
    for (int step = 2; step <= 20; step++) {
      log.add(step, Map.of("loss", 9.0 / step));
      log.flush();
    }
    writing.set(false);
    reader.join();
    assertEquals(0, missing.get(), "train.jsonl was missing at " + missing + " of " + checks + " checks");
    assertEquals(20, MetricsLog.open(run, "train", 20, conf).lines().size());
  }

  @Test
  void aKillBetweenTheRenamesLosesNothing() throws IOException {
    String run = BuildDirs.fresh("metrics-log").toUri().toString();
    Configuration conf = new Configuration();
    MetricsLog log = MetricsLog.open(run, "train", 0, conf);
    log.add(1, Map.of("loss", 9.0));
    log.add(2, Map.of("loss", 8.0));
    log.flush();
    List<String> written = log.lines();
    // where a kill after the first rename of the next flush leaves things: the old file as its
    // backup, the new one still under its temporary name
    Path file = new Path(run, "metrics/train.jsonl");
    FileSystem fs = file.getFileSystem(conf);
    assertTrue(fs.rename(file, new Path(run, "metrics/.train.jsonl.bak")));
    fs.create(new Path(run, "metrics/.train.jsonl.tmp-killed")).close();

    MetricsLog resumed = MetricsLog.open(run, "train", 2, conf);
    assertEquals(written, resumed.lines());
    resumed.add(3, Map.of("loss", 7.0));
    resumed.flush();
    assertEquals(3, MetricsLog.open(run, "train", 3, conf).lines().size());
    assertTrue(!fs.exists(new Path(run, "metrics/.train.jsonl.bak")), "the backup is removed by the next flush");
  }
}
