package org.sparknmt.common.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaPairRDD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.ShardWriter;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.SparkCluster;
import scala.Tuple2;

class IndexedBatchesTest {
  @RegisterExtension
  static final SparkCluster SPARK = new SparkCluster("local[2]");

  /**
   * Writes shards of {@code sizes} batches; batch i of the split holds {@code pairsPerBatch} pairs with line id i
   * and sentences of {@code length} ids. Returns the files; their batch counts are {@code sizes}.
   */
  static List<String> shards(Path dir, long[] sizes, int pairsPerBatch, int length) throws IOException {
    Files.createDirectories(dir);
    List<String> files = new ArrayList<>();
    long index = 0;
    for (int s = 0; s < sizes.length; s++) {
      Path file = dir.resolve(String.format("shard-%05d.shard", s));
      try (OutputStream out = Files.newOutputStream(file); ShardWriter writer = new ShardWriter(out)) {
        for (long b = 0; b < sizes[s]; b++, index++) {
          List<EncodedPair> pairs = new ArrayList<>(pairsPerBatch);
          for (int p = 0; p < pairsPerBatch; p++) {
            int[] ids = new int[length];
            Arrays.fill(ids, (int) (4 + (index + p) % 7000));
            pairs.add(new EncodedPair(index, ids, ids.clone()));
          }
          writer.write(new Batch(pairs));
        }
      }
      files.add(file.toString());
    }
    return files;
  }

  @Test
  void keysBatchesByIndexInBoundedPartitionsAndComputesOnlyThoseAskedFor() throws IOException {
    long[] sizes = {5, 0, 7};
    List<String> files = shards(BuildDirs.fresh("indexed-batches"), sizes, 2, 3);
    IndexedBatches indexed = IndexedBatches.of(SPARK.sc(), files, Arrays.stream(sizes).boxed().toList(), 3);
    assertEquals(12, indexed.count());
    assertEquals(5, indexed.partitions());

    List<List<Tuple2<Long, Batch>>> partitions = indexed.rdd().glom().collect();
    assertEquals(List.of(3, 2, 3, 3, 1), partitions.stream().map(List::size).toList());
    List<Long> keys = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      for (Tuple2<Long, Batch> batch : partitions.get(p)) {
        assertEquals(batch._1().longValue(), batch._2().pairs().get(0).lineId(), "the batch keyed " + batch._1());
        assertEquals(p, indexed.partitionOf(batch._1()));
        keys.add(batch._1());
      }
    }
    assertEquals(LongStream.range(0, 12).boxed().toList(), keys);
    assertThrows(IllegalArgumentException.class, () -> indexed.partitionOf(12));

    JavaPairRDD<Long, Batch> held = indexed.holding(List.of(10L, 1L, 2L));
    assertEquals(2, held.getNumPartitions());
    assertEquals(List.of(0L, 1L, 2L, 8L, 9L, 10L), held.keys().collect());
  }
}
