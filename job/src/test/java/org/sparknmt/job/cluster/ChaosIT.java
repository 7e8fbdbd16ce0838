package org.sparknmt.job.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@code scripts/chaos}: a run on the real daemons of {@code scripts/cluster},
 * killed and disturbed by a seeded schedule of faults and rerun by the script's supervisor, ends
 * bit-identical to an undisturbed run of the same command (parameters, Adam state, training state,
 * metrics logs). The script starts the cluster on this test's free ports and stops it; the test checks
 * that nothing of it is left running.
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

  @Test
  void aRunDisturbedByFaultsEndsBitIdenticalToAnUndisturbedOne() throws Exception {
    LocalCluster cluster = new LocalCluster("chaos-it");
    long start = System.nanoTime();
    List<String> command = new ArrayList<>(List.of("scripts/chaos", "--faults", Integer.toString(KINDS.size()),
        "--kinds", String.join(",", KINDS)));
    command.addAll(SCHEDULE);
    ScriptRun chaos;
    try {
      chaos = ScriptRun.run(cluster.root, cluster.dir.resolve("test-logs"), cluster.environment(), TIMEOUT,
          command.toArray(String[]::new));
    } finally {
      cluster.deleteApplicationJars();
    }
    System.out.printf("chaos: %d faults in %.0f s%n%s%n", KINDS.size(), (System.nanoTime() - start) / 1e9,
        chaos.output().substring(Math.max(0, chaos.output().indexOf("| # |"))));
    assertEquals(List.of(), cluster.processesOfThisCluster(), "scripts/chaos left processes of its cluster running");
    assertEquals(0, chaos.exitCode(), chaos.output());
    assertTrue(chaos.output().contains("verdict: IDENTICAL"), chaos.output());
    assertTrue(chaos.output().contains("same: parameters: ") && chaos.output().contains("same: Adam state: ")
        && chaos.output().contains("same: metrics/train.jsonl: ") && chaos.output().contains("same: metrics/valid.jsonl: "),
        chaos.output());
    assertFalse(chaos.output().contains("not fired"), "a fault did not fire:\n" + chaos.output());
    for (String kind : KINDS) {
      assertTrue(chaos.output().contains("| " + kind + " | "), kind + " missing from the table:\n" + chaos.output());
    }
    cluster.deleteFolder();
  }
}
