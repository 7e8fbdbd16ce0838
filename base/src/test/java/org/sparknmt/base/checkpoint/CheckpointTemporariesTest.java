package org.sparknmt.base.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.sparknmt.testkit.BuildDirs;

/** Temporary checkpoint folders carry their writer: prune removes only its own, removeLeftovers all. */
class CheckpointTemporariesTest {
  /** A state with only a step: what the store writes does not matter here. */
  private static TrainingState state(long step) throws IOException {
    return new ObjectMapper().readValue("{\"step\": " + step + ", \"metrics\": {}}", TrainingState.class);
  }

  @Test
  void pruneLeavesAnotherWritersTemporaryFolderAndRemovesItsOwn() throws IOException {
    String run = BuildDirs.fresh("checkpoint-temporaries").toUri().toString();
    Configuration conf = new Configuration();
    CheckpointStore other = new CheckpointStore(run, conf);
    CheckpointStore store = new CheckpointStore(run, conf);
    // the other writer's write in flight, and one of this store's own that failed
    Path inFlight = temporaryOf(other, "step-00000009");
    Path failed = temporaryOf(store, "step-00000007");
    FileSystem fs = inFlight.getFileSystem(conf);

    store.save(state(8), out -> out.write(8), null);
    store.prune(5);
    assertEquals(List.of(inFlight.getName()), hidden(fs, store.root()));

    store.removeLeftovers();
    assertEquals(List.of(), hidden(fs, store.root()));
    assertEquals(false, fs.exists(failed));
  }

  /** A temporary folder as {@code store} names it for {@code name}, found by writing one and stopping there. */
  private static Path temporaryOf(CheckpointStore store, String name) throws IOException {
    Path created = null;
    try {
      store.save(name, state(1), out -> {
        throw new IOException("interrupted");
      }, null);
    } catch (IOException expected) {
      // the failed write leaves its temporary folder, as a kill would
    }
    FileSystem fs = store.root().getFileSystem(new Configuration());
    for (FileStatus status : fs.listStatus(store.root())) {
      if (status.getPath().getName().startsWith("." + name + ".tmp-")) {
        created = status.getPath();
      }
    }
    return created;
  }

  private static List<String> hidden(FileSystem fs, Path root) throws IOException {
    return Arrays.stream(fs.listStatus(root)).map(s -> s.getPath().getName())
        .filter(n -> n.startsWith(".") && !n.endsWith(".crc")).sorted().toList();
  }
}
