package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@code scripts/chaos}: a run on the real daemons of {@code scripts/cluster},
 * killed and disturbed by a seeded schedule of faults and rerun by the script's supervisor, ends
 * bit-identical to an undisturbed run of the same command (parameters, Adam state, training state,
 * metrics logs), with the runs on HDFS and on {@code s3a://} (S3Mock, started by the script). The script
 * starts the cluster on this test's free ports and stops it; the test checks that nothing of it is left
 * running. The run on {@code s3a://} is tagged "long": CI's time holds the HDFS schedule only, and
 * {@code TrainJobS3Test} covers a kill inside a checkpoint write on {@code s3a://} there; run it before changing
 * the object-store paths: {@code mvn -pl cli verify -Dsparknmt.test.excludedGroups=none -Dit.test=ChaosIT}.
 */
@Tag("slow")
class ChaosIT {
  /** A guard against a hang, not a speed check. */
  private static final Duration TIMEOUT = Duration.ofMinutes(40);
  private static final List<String> KINDS = List.of("checkpoint-kill", "lock-race", "executor-kill", "datanode-restart",
      "old-checkpoint-corrupt");
  /**
   * 16 steps, a checkpoint every 4: the faults lie 1-4 steps apart and a killed driver retrains at most 4. The
   * checkpoint kill comes last, in the final write (step 16), after the DataNode restart: a driver whose open lock
   * file outlived a DataNode restart keeps the reruns out until HDFS recovers the file's lease (1-3 minutes). Seed
   * 10 draws the lock race (step 4) before the restart (step 11), so that this wait comes once, not twice.
   */
  private static final List<String> SCHEDULE = List.of("--seed", "10", "--steps", "16", "--checkpoint-every", "4");
  /** The kinds that apply to an object store: no daemons, quota or blocks of its own to disturb. */
  private static final List<String> S3A_KINDS = List.of("executor-kill", "driver-kill", "checkpoint-kill");
  /**
   * 8 steps, a checkpoint every 2 (each round): seed 1 draws the executor kill at step 2 and the driver kill at
   * step 3; the checkpoint kill lands in the final write (step 8), so each killed driver retrains at most 2 steps.
   */
  private static final List<String> S3A_SCHEDULE = List.of("--store", "s3a", "--seed", "1", "--steps", "8",
      "--checkpoint-every", "2");

  @Test
  void aRunDisturbedByFaultsEndsBitIdenticalToAnUndisturbedOne() throws Exception {
    assertChaosEndsIdentical("chaos-it", KINDS, SCHEDULE, cluster -> cluster.hdfsUri("/chaos"));
  }

  @Test
  @Tag("long")
  void aRunOnS3aKilledOverAndOverEndsBitIdenticalToAnUndisturbedOne() throws Exception {
    assertChaosEndsIdentical("chaos-s3a-it", S3A_KINDS, S3A_SCHEDULE, cluster -> "s3a://runs/chaos");
  }

  /** Runs the schedule and checks the verdict, and that the compared runs lived in the folder {@code runs} names. */
  private static void assertChaosEndsIdentical(String name, List<String> kinds, List<String> schedule,
      Function<LocalCluster, String> runs) throws Exception {
    LocalCluster cluster = new LocalCluster(name);
    long start = System.nanoTime();
    List<String> command = new ArrayList<>(List.of("scripts/chaos", "--faults", Integer.toString(kinds.size()),
        "--kinds", String.join(",", kinds)));
    command.addAll(schedule);
    ScriptRun chaos;
    try {
      chaos = ScriptRun.run(cluster.root, cluster.dir.resolve("test-logs"), cluster.environment(), TIMEOUT,
          command.toArray(String[]::new));
    } finally {
      cluster.deleteApplicationJars();
    }
    System.out.printf("chaos: %d faults in %.0f s%n%s%n", kinds.size(), (System.nanoTime() - start) / 1e9,
        chaos.output().substring(Math.max(0, chaos.output().indexOf("| # |"))));
    assertEquals(List.of(), cluster.processesOfThisCluster(), "scripts/chaos left processes of its cluster running");
    assertEquals(0, chaos.exitCode(), chaos.output());
    assertTrue(chaos.output().contains("verdict: IDENTICAL"), chaos.output());
    String compared = "compare-runs: " + runs.apply(cluster) + "/chaos is identical to " + runs.apply(cluster) + "/undisturbed";
    assertTrue(chaos.output().contains(compared), compared + " missing:\n" + chaos.output());
    assertTrue(chaos.output().contains("same: parameters: ") && chaos.output().contains("same: Adam state: ")
        && chaos.output().contains("same: metrics/train.jsonl: ") && chaos.output().contains("same: metrics/valid.jsonl: "),
        chaos.output());
    assertFalse(chaos.output().contains("not fired"), "a fault did not fire:\n" + chaos.output());
    for (String kind : kinds) {
      assertTrue(chaos.output().contains("| " + kind + " | "), kind + " missing from the table:\n" + chaos.output());
    }
    cluster.deleteFolder();
  }
}
