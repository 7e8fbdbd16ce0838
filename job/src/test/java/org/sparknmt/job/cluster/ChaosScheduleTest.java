package org.sparknmt.job.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparknmt.testkit.BuildDirs;

/**
 * What a seed of {@code scripts/chaos --job train} guarantees before any run, read from {@code --schedule} (which
 * starts no cluster): at {@code --faults 30} every one of the 9 kinds at least twice, and a kill inside the final
 * checkpoint's write as the last fault, which the script fires only once no other fault is due, so that the run
 * cannot end with a fault unfired.
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
    assertEquals("checkpoint-kill inside the write of step 200 (the final one: the last fault)", faults.get(29));
    assertEquals(1, faults.stream().filter(line -> line.contains("the last fault")).count(), String.join("\n", schedule));
    assertTrue(faults.subList(0, 29).stream().allMatch(line -> step(line) < 200), String.join("\n", schedule));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aSeedDrawsOneScheduleAndAnotherSeedAnother(int seed) throws Exception {
    List<String> first = schedule("--faults", "30", "--seed", Integer.toString(seed));

    assertEquals(first, schedule("--faults", "30", "--seed", Integer.toString(seed)));
    assertNotEquals(first, schedule("--faults", "30", "--seed", Integer.toString(seed + 1)));
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
