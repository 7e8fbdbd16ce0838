package org.sparknmt.base.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** The paths of a run are part of its format: runs written by one version are read by the next. */
class RunLayoutTest {
  private static final String RUN = "hdfs://namenode:8020/runs/de-en";
  private final RunLayout layout = RunLayout.of(RUN);

  @Test
  void namesEveryFolderAndFileOfARun() {
    assertEquals(RUN, layout.run().toString());
    assertPath("/.lock", layout.lock());
    assertPath("/.lock.stale-holder-1", layout.staleLock("holder-1"));

    Path data = layout.data();
    assertPath("/data", data);
    assertPath("/data.tmp-id-1", layout.dataStaging("id-1"));
    assertPath("/data.old-id-2", layout.dataReplaced("id-2"));
    assertPath("/data/manifest.json", RunLayout.manifest(data));
    assertPath("/data/vocab/bpe.json", RunLayout.vocabFile(data));
    assertPath("/data/vocab/bpe.json.sha256", RunLayout.vocabHashFile(data));
    assertPath("/data/rejects", RunLayout.rejects(data));
    assertPath("/data/train", RunLayout.shards(data, "train"));
    assertPath("/data/valid", RunLayout.shards(data, "valid"));

    assertPath("/checkpoints", layout.checkpoints());
    assertPath("/checkpoints/step-00000020", layout.checkpoint(20));
    assertEquals("avg-last-5-step-00000200", RunLayout.averagedCheckpointName(5, 200));

    assertPath("/metrics", layout.metrics());
    assertPath("/metrics/train.jsonl", layout.metricsLog(RunLayout.TRAIN_LOG));
    assertPath("/metrics/valid.jsonl", layout.metricsLog(RunLayout.VALID_LOG));

    Path attempt = layout.evalAttempt("20261204-050000-000");
    assertPath("/eval", layout.eval());
    assertPath("/eval/eval-20261204-050000-000", attempt);
    assertPath("/eval/eval-20261204-050000-000.json", RunLayout.evalResult(attempt));
    assertPath("/eval/eval-20261204-050000-000/step-00000020.txt", RunLayout.evalTranslation(attempt, "step-00000020"));

    assertPath("/report", layout.report());
    assertPath("/report/index.html", layout.reportPage());
    assertPath("/report/attention", layout.reportAttention());
    assertPath("/shortlist/shortlist.txt", layout.shortlist());
  }

  @Test
  void aTrailingSlashOrAnotherSchemeChangesNothingBelowTheRun() {
    assertEquals(layout.checkpoint(7), RunLayout.of(RUN + "/").checkpoint(7));
    assertEquals("file:/tmp/run/metrics/train.jsonl", RunLayout.of("file:///tmp/run").metricsLog(RunLayout.TRAIN_LOG).toString());
    assertEquals("s3a://bucket/run/.lock", RunLayout.of("s3a://bucket/run").lock().toString());
    assertEquals("run/data/manifest.json", RunLayout.manifest(RunLayout.of("run").data()).toString());
  }

  @Test
  void checkpointNamesSortByStepAndOnlyTheyCarryOne() {
    assertEquals("step-00000009", RunLayout.checkpointName(9));
    assertEquals("step-123456789", RunLayout.checkpointName(123_456_789));
    assertTrue(RunLayout.checkpointName(9).compareTo(RunLayout.checkpointName(10)) < 0);
    assertEquals(OptionalLong.of(9), RunLayout.checkpointStep("step-00000009"));
    assertEquals(OptionalLong.of(123_456_789), RunLayout.checkpointStep("step-123456789"));
    assertEquals(OptionalLong.empty(), RunLayout.checkpointStep("step-9"), "unpadded: not a folder this store wrote");
    assertEquals(OptionalLong.empty(), RunLayout.checkpointStep(RunLayout.averagedCheckpointName(2, 9)));
    assertEquals(OptionalLong.empty(), RunLayout.checkpointStep(".step-00000009.v-writer-uuid"));
  }

  @Test
  void anEvaluationsFolderAndResultAreToldFromOtherEntries() {
    Path attempt = layout.evalAttempt("20261204-050000-000");
    assertTrue(RunLayout.isEvalAttempt(attempt.getName()));
    assertTrue(RunLayout.isEvalResult(RunLayout.evalResult(attempt)));
    assertFalse(RunLayout.isEvalAttempt(".eval-20261204-050000-000.json.tmp-x"));
    assertFalse(RunLayout.isEvalResult(attempt));
  }

  private static void assertPath(String belowRun, Path actual) {
    assertEquals(RUN + belowRun, actual.toString());
  }
}
