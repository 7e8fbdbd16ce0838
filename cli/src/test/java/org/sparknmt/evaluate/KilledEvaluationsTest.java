package org.sparknmt.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparknmt.base.files.WriteLeftovers;
import org.sparknmt.base.files.WriterProcess;
import org.sparknmt.testkit.HiddenWrites;

/** What evaluations killed with their driver leave under {@code RUN/eval}, and what the next one removes. */
class KilledEvaluationsTest {
  @TempDir Path run;

  @Test
  void theHiddenFilesOfDeadEvaluationsGoFinishedTranslationsAndLiveOnesStay() throws Exception {
    Path eval = Files.createDirectories(run.resolve("eval"));
    long now = System.currentTimeMillis();
    WriterProcess killed = HiddenWrites.killed();
    // killed during its first translation: only hidden parts
    Path first = Files.createDirectories(eval.resolve("eval-20261204-050000-000"));
    Files.createDirectories(first.resolve(HiddenWrites.name("step-8.txt", "parts", now, killed)));
    // killed during its second: the first translation is complete and stays
    Path second = Files.createDirectories(eval.resolve("eval-20261204-051000-000"));
    Files.writeString(second.resolve("step-8.txt"), "done\n");
    Files.writeString(second.resolve(HiddenWrites.name("step-16.txt", "tmp", now, killed)), "half");
    // killed while its report was written
    Path third = Files.createDirectories(eval.resolve("eval-20261204-052000-000"));
    Files.writeString(third.resolve("step-8.txt"), "done\n");
    Files.writeString(eval.resolve(HiddenWrites.name("eval-20261204-052000-000.json", "tmp", now, killed)), "{");
    // another evaluation still running (this process), and one on another host
    Path live = Files.createDirectories(eval.resolve("eval-20261204-053000-000"));
    String running = HiddenWrites.name("step-8.txt", "parts", now, HiddenWrites.alive());
    Files.createDirectories(live.resolve(running));
    Path far = Files.createDirectories(eval.resolve("eval-20261204-054000-000"));
    String elsewhere = HiddenWrites.name("step-8.txt", "parts", now - 60_000, HiddenWrites.elsewhere());
    Files.createDirectories(far.resolve(elsewhere));

    FileSystem fs = FileSystem.getLocal(new Configuration());
    CheckpointEvaluation.removeKilledAttempts(fs, new org.apache.hadoop.fs.Path(eval.toUri()),
        WriteLeftovers.Write.start());

    assertFalse(Files.exists(first), "a folder that held only a killed write's parts");
    assertEquals(List.of("step-8.txt"), names(second));
    assertEquals(List.of("step-8.txt"), names(third));
    assertEquals(List.of(running), names(live));
    assertEquals(List.of(elsewhere), names(far));
    assertTrue(names(eval).stream().noneMatch(name -> name.startsWith(".")), names(eval).toString());
  }

  /** The names in {@code folder}, Hadoop's .crc files aside. */
  private static List<String> names(Path folder) throws Exception {
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
    }
  }
}
