package org.sparknmt.base.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.run.JobProgress.Count;
import org.sparknmt.base.run.JobProgress.Snapshot;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

/** The progress line: its text, and what a real Spark job makes it say. */
class JobProgressTest {
  /** Heartbeats often enough that a running task's records show within a test's seconds. */
  @RegisterExtension static final SparkCluster SPARK =
      new SparkCluster("local[2]", Map.of("spark.executor.heartbeatInterval", "100ms"));

  @Test
  void aKnownTotalGivesTheShareOfRecordsTheRateAndTheEta() {
    assertEquals("translate: 25,000 of 100,000 lines (25%) | 833 lines/s | ETA 1m30s",
        JobProgress.line("translate", "lines", Count.OUTPUT_RECORDS, new Snapshot(25_000, 100_000, 1, 8, 30, false)));
    assertEquals("translate: 100,000 of 100,000 lines (100%) | 800 lines/s | in 2m05s",
        JobProgress.line("translate", "lines", Count.OUTPUT_RECORDS, new Snapshot(100_000, 100_000, 8, 8, 125, true)));
    // nearly done is not done
    assertEquals("translate: 99,990 of 100,000 lines (99%) | 9,999 lines/s | ETA 0m00s",
        JobProgress.line("translate", "lines", Count.OUTPUT_RECORDS, new Snapshot(99_990, 100_000, 7, 8, 10, false)));
  }

  @Test
  void anUnknownTotalGivesTheShareOfTasks() {
    assertEquals("prepare: 5,000 lines read | 3 of 8 tasks (38%) | 417 lines/s | ETA 0m20s",
        JobProgress.line("prepare", "lines read", Count.INPUT_RECORDS, new Snapshot(5_000, -1, 3, 8, 12, false)));
    assertEquals("evaluate: 0 of 4 tasks (0%) | ETA ?",
        JobProgress.line("evaluate", "lines", Count.TASKS, new Snapshot(0, -1, 0, 4, 3, false)));
    assertEquals("evaluate: 4 of 4 tasks (100%) | in 2h05m",
        JobProgress.line("evaluate", "lines", Count.TASKS, new Snapshot(0, -1, 4, 4, 7500, true)));
  }

  @Test
  void theEtaIsTheElapsedTimeScaledByWhatIsLeft() {
    assertEquals(90, JobProgress.eta(0.25, 30), 1e-9);
    assertEquals(0, JobProgress.eta(1, 30), 1e-9);
    assertTrue(Double.isNaN(JobProgress.eta(0, 30)));
    assertEquals("0m59s", JobProgress.duration(59.4));
    assertEquals("1h00m", JobProgress.duration(3599.6));
  }

  @Test
  void aSparkJobGivesLinesThatGrowToTheTotalCountingRunningTasks() throws Exception {
    Path out = BuildDirs.fresh("job-progress").resolve("out");
    int lines = 4_000;
    List<String> printed = Collections.synchronizedList(new ArrayList<>());
    try (JobProgress progress = new JobProgress(SPARK.sc(), "translate", "lines", Count.OUTPUT_RECORDS, lines, 0.1,
        printed::add)) {
      SPARK.sc().parallelize(IntStream.range(0, lines).boxed().toList(), 2)
          .map(i -> {
            if (i % 200 == 0) {
              Thread.sleep(100);
            }
            return "line " + i;
          })
          .saveAsTextFile(out.toString());
    }
    printed.forEach(System.out::println);
    Pattern done = Pattern.compile("^translate: ([0-9,]+) of 4,000 lines \\(([0-9]+)%\\) \\| [0-9,]+ lines/s \\| (ETA|in) ");
    long previous = -1;
    boolean partial = false;
    for (String line : printed) {
      Matcher m = done.matcher(line);
      assertTrue(m.find(), line);
      long count = Long.parseLong(m.group(1).replace(",", ""));
      assertTrue(count >= previous, printed.toString());
      previous = count;
      // each task writes 2,000 lines: any other count is a running task's, from its heartbeats
      partial |= count % 2_000 != 0;
    }
    assertTrue(partial, printed.toString());
    String last = printed.get(printed.size() - 1);
    assertTrue(last.startsWith("translate: 4,000 of 4,000 lines (100%)") && last.contains(" | in "), last);
  }

  @Test
  void withoutATotalTheLinesCountTasksAndSkipTheStagesComputedBefore() throws Exception {
    Path input = BuildDirs.fresh("job-progress-input").resolve("input.txt");
    Files.write(input, IntStream.range(0, 2_000).mapToObj(i -> "word" + i % 7).toList());
    List<String> printed = Collections.synchronizedList(new ArrayList<>());
    try (JobProgress progress = new JobProgress(SPARK.sc(), "evaluate", "lines read", Count.INPUT_RECORDS, -1, 0.05,
        printed::add)) {
      JavaRDD<Tuple2<String, Integer>> counts = SPARK.sc().textFile(input.toString(), 4)
          .mapToPair(word -> new Tuple2<>(word, 1))
          .reduceByKey(Integer::sum, 3)
          .map(t -> {
            Thread.sleep(200);
            return t;
          })
          .rdd().toJavaRDD();
      counts.collect();
      // the shuffle's map stage is reused: the second job adds its 3 reduce tasks only
      counts.collect();
    }
    printed.forEach(System.out::println);
    assertTrue(!printed.isEmpty(), printed.toString());
    String last = printed.get(printed.size() - 1);
    // 4 or 5 splits read, 3 reduce tasks in each job
    assertTrue(last.matches("evaluate: 2,000 lines read \\| (1[01]) of \\1 tasks \\(100%\\) \\| .* \\| in .*"), last);
    // the second job's skipped map stage counts from its start until its reduce stage is submitted, not after
    int second = IntStream.range(0, printed.size()).filter(i -> printed.get(i).matches(".* of 1[01] tasks .*"))
        .findFirst().orElseThrow();
    assertTrue(printed.subList(second, printed.size()).stream().noneMatch(line -> line.matches(".* of 1[45] tasks .*")),
        printed.toString());
  }

  @Test
  void workShorterThanTheIntervalPrintsNothingAndASinkThatThrowsFailsNothing() {
    List<String> printed = new ArrayList<>();
    try (JobProgress progress = new JobProgress(SPARK.sc(), "prepare", "lines", Count.TASKS, -1, 60, printed::add)) {
      assertEquals(14, SPARK.sc().parallelize(List.of(1, 2, 3, 4), 2).map(i -> i + 1).reduce(Integer::sum));
    }
    assertEquals(List.of(), printed);
    try (JobProgress progress = new JobProgress(SPARK.sc(), "prepare", "lines", Count.TASKS, -1, 0.01, line -> {
      throw new IllegalStateException("a broken sink");
    })) {
      assertEquals(14, SPARK.sc().parallelize(List.of(1, 2, 3, 4), 2).map(i -> {
        Thread.sleep(50);
        return i + 1;
      }).reduce(Integer::sum));
    }
  }
}
