package org.sparknmt.base.lines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.files.WriterProcess;
import org.sparknmt.testkit.HiddenWrites;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;

/** One output file from an RDD on a real HDFS, and what writes killed before it left beside it. */
class SingleFileOutputTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");

  @Test
  void aWriteRemovesWhatKilledWritesLeftAndLeavesLiveOnes() throws Exception {
    Configuration hadoop = SPARK.sc().hadoopConfiguration();
    Path folder = new Path(HDFS.path("/leftovers"));
    FileSystem fs = folder.getFileSystem(hadoop);
    long now = System.currentTimeMillis();
    WriterProcess killed = HiddenWrites.killed();
    List<String> removed = List.of(
        HiddenWrites.name("out.txt", "parts", now - 60_000, killed),
        HiddenWrites.name("out.txt", "tmp", now - 60_000, killed),
        HiddenWrites.name("other.txt", "parts", now - 60_000, killed),
        // a driver on another host cannot be proven gone, but an earlier write of this output is over
        HiddenWrites.name("out.txt", "parts", now - 60_000, HiddenWrites.elsewhere()));
    List<String> kept = List.of(
        HiddenWrites.name("other.txt", "parts", now - 60_000, HiddenWrites.alive()),
        HiddenWrites.name("other.txt", "parts", now - 60_000, HiddenWrites.elsewhere()),
        HiddenWrites.name("out.txt", "parts", now + 3_600_000, HiddenWrites.elsewhere()),
        ".out.txt.parts-not-a-write-of-sparknmt");
    for (String name : removed.subList(0, 3)) {
      Path hidden = new Path(folder, name);
      if (name.contains(".parts-")) {
        fs.create(new Path(hidden, "part-00000")).close();
      } else {
        fs.create(hidden).close();
      }
    }
    for (String name : removed.subList(3, 4)) {
      fs.mkdirs(new Path(folder, name));
    }
    for (String name : kept) {
      fs.mkdirs(new Path(folder, name));
    }
    List<String> lines = IntStream.range(0, 50).mapToObj(i -> "line " + i).toList();

    long written = SingleFileOutput.write(SPARK.sc().parallelize(lines, 3), new Path(folder, "out.txt").toString(),
        false, hadoop);

    assertEquals(lines.size(), written);
    try (var in = fs.open(new Path(folder, "out.txt"))) {
      assertEquals(lines, Arrays.asList(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")));
    }
    Set<String> hidden = Arrays.stream(fs.listStatus(folder)).map(FileStatus::getPath).map(Path::getName)
        .filter(name -> name.startsWith(".")).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(kept), hidden);
  }
}
