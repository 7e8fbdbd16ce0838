package org.sparknmt.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparknmt.testkit.BuildDirs;

/**
 * What a seed of {@code scripts/chaos --job train} guarantees before any run, read from {@code --schedule} (which
 * starts no cluster): at {@code --faults 30} every one of the 9 kinds at least twice, and a kill inside the final
 * checkpoint's write as the last fault, which the script fires only once no other fault is due, so that the run
 * cannot end with a fault unfired; and each checkpoint kill in a checkpoint write the run does make.
 */
class ChaosScheduleTest {
  private static final List<String> KINDS = List.of("executor-kill", "driver-kill", "checkpoint-kill", "lock-race",
      "datanode-restart", "namenode-restart", "quota", "old-checkpoint-corrupt", "old-checkpoint-unreadable");

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void thirtyFaultsDrawEveryKindTwiceAndEndInTheFinalCheckpointWrite(int seed) throws Exception {
    List<String> schedule = schedule("--faults", "30", "--seed", Integer.toString(seed), "--steps", "200");

    List<String> faults = schedule.subList(0, schedule.size() - 1);
    assertEquals(30, faults.size(), String.join("\n", schedule));
    Map<String, Long> byKind = faults.stream().map(line -> line.split(" ")[0])
        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    for (String kind : KINDS) {
      assertTrue(byKind.getOrDefault(kind, 0L) >= 2, kind + " drawn fewer than twice:\n" + String.join("\n", schedule));
    }
    assertEquals("checkpoint-kill inside the final checkpoint write (the last fault)", faults.get(29));
    assertEquals(1, faults.stream().filter(line -> line.contains("the last fault")).count(), String.join("\n", schedule));
    assertTrue(faults.subList(0, 29).stream().allMatch(line -> step(line) < 200), String.join("\n", schedule));
  }

  /**
   * Seed 3 draws checkpoint kills at steps 120 and 130; with 67 steps an epoch (the sample's, 2 workers, 2 steps a
   * round) the second epoch's checkpoints lie at 71, 81, ... 131, so no write of step 120 or 130 ever happens and
   * the kills, held for those names, could never fire. They land in the next checkpoint written instead.
   */
  @Test
  void aCheckpointKillLandsInTheFirstCheckpointTheRunWritesAtOrAfterItsStep() throws Exception {
    String written = "10,20,30,40,50,60,67,71,81,91,101,111,121,131,134,140,150,160,170,180,190,200";

    List<String> nominal = schedule("--faults", "30", "--seed", "3");
    List<String> landed = schedule("--faults", "30", "--seed", "3", "--checkpoints", written);

    assertTrue(nominal.contains("checkpoint-kill inside the first checkpoint write at or after step 120"),
        String.join("\n", nominal));
    assertEquals(List.of("checkpoint-kill inside the write of step 121", "checkpoint-kill inside the write of step 131",
        "checkpoint-kill inside the final checkpoint write (the last fault)"),
        landed.stream().filter(line -> line.startsWith("checkpoint-kill")).toList());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aSeedDrawsOneScheduleAndAnotherSeedAnother(int seed) throws Exception {
    List<String> first = schedule("--faults", "30", "--seed", Integer.toString(seed));

    assertEquals(first, schedule("--faults", "30", "--seed", Integer.toString(seed)));
    assertNotEquals(first, schedule("--faults", "30", "--seed", Integer.toString(seed + 1)));
  }

  /** An object store has no daemons, quota or blocks to disturb: --store s3a draws from the kills alone. */
  @Test
  void theRunsOnS3aDrawOnlyTheKillsAndRefuseTheKindsOfHdfs() throws Exception {
    List<String> schedule = schedule("--store", "s3a", "--faults", "9", "--seed", "1", "--steps", "48");

    assertEquals("faults by kind: executor-kill 3, driver-kill 3, checkpoint-kill 3", schedule.get(schedule.size() - 1));
    ScriptRun refused = ScriptRun.run(LocalCluster.projectRoot(), BuildDirs.fresh("chaos-schedule"), Map.of(),
        Duration.ofMinutes(1), "scripts/chaos", "--store", "s3a", "--kinds", "executor-kill,quota", "--schedule");
    assertEquals(2, refused.exitCode(), refused.output());
    assertTrue(refused.output().contains("--kinds: quota not a kind of --store s3a"), refused.output());
  }

  private static int step(String line) {
    String[] words = line.split(" ");
    return Arrays.stream(words).filter(w -> w.matches("\\d+")).mapToInt(Integer::parseInt).findFirst().orElseThrow();
  }

  private static List<String> schedule(String... args) throws Exception {
    String[] command = new String[args.length + 2];
    command[0] = "scripts/chaos";
    System.arraycopy(args, 0, command, 1, args.length);
    command[command.length - 1] = "--schedule";
    ScriptRun run = ScriptRun.run(LocalCluster.projectRoot(), BuildDirs.fresh("chaos-schedule"), Map.of(),
        Duration.ofMinutes(1), command).assertSucceeded();
    return run.output().lines().toList();
  }
}
