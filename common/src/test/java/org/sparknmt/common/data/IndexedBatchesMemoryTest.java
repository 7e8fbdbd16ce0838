package org.sparknmt.common.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.ChildJvm;

/**
 * Training data larger than the heap caches and serves rounds in it: two shards of 400,000 pairs
 * (about 190 MB of Java objects each, 380 MB read at once by two tasks) cached MEMORY_ONLY_SER by
 * {@code local[2]} in a JVM of 512 MB heap, where reading each shard into a list ran out of heap.
 */
@Tag("slow")
class IndexedBatchesMemoryTest {
  private static final long[] SHARDS = {10_000, 10_000};
  private static final int PAIRS_PER_BATCH = 40;
  private static final int LENGTH = 50;

  @Test
  void shardsLargerThanTheHeapCacheAndServeRoundsInA512MbHeap() throws Exception {
    Path dir = BuildDirs.fresh("indexed-batches-memory");
    List<String> files = IndexedBatchesTest.shards(dir.resolve("train"), SHARDS, PAIRS_PER_BATCH, LENGTH);
    List<String> args = new ArrayList<>(List.of(dir.resolve("spark").toString()));
    for (int i = 0; i < files.size(); i++) {
      args.add(files.get(i));
      args.add(Long.toString(SHARDS[i]));
    }
    Path log = dir.resolve("child.log");
    int exit = ChildJvm.run(SmallHeapCache.class, "512m", log, args.toArray(String[]::new));
    assertEquals(0, exit, "caching in a 512 MB heap failed; the end of " + log + ":\n" + ChildJvm.tail(log));
  }

  /**
   * The child JVM: {@code SPARK_DIR (SHARD BATCHES)...}; caches the shards as training does, counts every
   * batch, then reads a round's batches from the cache; exits 0 when all are there.
   */
  public static final class SmallHeapCache {
    public static void main(String[] args) {
      SparkConf conf = ChildJvm.localSpark("IndexedBatchesMemoryTest", args[0]);
      List<String> files = new ArrayList<>();
      List<Long> counts = new ArrayList<>();
      for (int i = 1; i < args.length; i += 2) {
        files.add(args[i]);
        counts.add(Long.parseLong(args[i + 1]));
      }
      long total = counts.stream().mapToLong(Long::longValue).sum();
      try (JavaSparkContext sc = new JavaSparkContext(conf)) {
        IndexedBatches batches = IndexedBatches.of(sc, files, counts, 256).persist(StorageLevel.MEMORY_ONLY_SER());
        long counted = batches.rdd().count();
        Set<Long> round = Set.of(3L, total / 2 + 7, total - 1);
        long found = batches.holding(round).filter(b -> round.contains(b._1())).count();
        if (counted != total || found != round.size()) {
          throw new IllegalStateException("counted " + counted + " of " + total + " batches, found " + found + " of "
              + round.size() + ": " + Arrays.toString(args));
        }
      }
    }
  }
}
