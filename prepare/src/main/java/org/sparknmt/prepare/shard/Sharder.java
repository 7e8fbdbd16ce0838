package org.sparknmt.prepare.shard;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.sparknmt.base.Seeds;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.BatchPacker;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.ShardFormat;
import org.sparknmt.common.shard.ShardInfo;
import org.sparknmt.common.shard.ShardWriter;
import scala.Tuple2;

/**
 * Length sort, token-budget packing and shard writing, on the executors: pairs are sorted by
 * ({@link SortKey}: length, seeded hash), packed into batches within each length range
 * ({@link BatchPacker}), then the batches are dealt to shards in the order of a seeded hash of
 * their position, so every shard mixes lengths and the order is the same on every run.
 */
public final class Sharder {
  /**
   * How pairs become batches: a batch's budget of target-side tokens and of pairs, the length ranges
   * sorted apart ({@code data.partitions}), and the seed of the order.
   */
  public record Packing(int maxTokens, int maxSentences, int partitions, long seed) {}

  private Sharder() {}

  public static List<ShardInfo> write(JavaRDD<EncodedPair> pairs, SortedMap<Integer, Long> lengthHistogram,
      Packing packing, int shards, String dir, Broadcast<SerializableWritable<Configuration>> hadoop) {
    long seed = packing.seed();
    int maxTokens = packing.maxTokens();
    int maxSentences = packing.maxSentences();
    LengthPartitioner byLength = LengthPartitioner.balanced(lengthHistogram, packing.partitions());
    return pairs
        .mapToPair(p -> new Tuple2<>(new SortKey(p.batchLength(), Seeds.mix(seed, p.lineId())), p))
        .repartitionAndSortWithinPartitions(byLength)
        .mapPartitionsWithIndex((partition, sorted) -> keyed(partition, seed,
            new BatchPacker(maxTokens, maxSentences).pack(values(sorted))), true)
        .mapToPair(t -> t)
        .repartitionAndSortWithinPartitions(new ModuloPartitioner(shards))
        .mapPartitionsWithIndex((shard, batches) -> List.of(writeShard(shard, batches, dir, hadoop.value().value()))
            .iterator(), true)
        .collect();
  }

  private static Iterator<EncodedPair> values(Iterator<Tuple2<SortKey, EncodedPair>> sorted) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return sorted.hasNext();
      }

      @Override
      public EncodedPair next() {
        return sorted.next()._2;
      }
    };
  }

  /** Each batch keyed by a seeded hash of (partition, index): distinct keys, a reproducible deal. */
  private static Iterator<Tuple2<Long, Batch>> keyed(int partition, long seed, Iterator<Batch> batches) {
    return new Iterator<>() {
      private long index;

      @Override
      public boolean hasNext() {
        return batches.hasNext();
      }

      @Override
      public Tuple2<Long, Batch> next() {
        return new Tuple2<>(Seeds.mix(seed + 1, ((long) partition << 32) | index++), batches.next());
      }
    };
  }

  /** The name of shard {@code index}: {@code shard-00003.shard}. */
  static String name(int index) {
    return String.format("shard-%05d%s", index, ShardFormat.SUFFIX);
  }

  private static ShardInfo writeShard(int shard, Iterator<Tuple2<Long, Batch>> batches, String dir, Configuration conf)
      throws IOException {
    Path path = new Path(dir, name(shard));
    FileSystem fs = path.getFileSystem(conf);
    long real = 0;
    long padded = 0;
    long batchCount;
    long pairCount;
    try (ShardWriter writer = new ShardWriter(fs.create(path, true))) {
      while (batches.hasNext()) {
        Batch batch = batches.next()._2;
        writer.write(batch);
        real += batch.realTokens();
        padded += batch.paddedTokens();
      }
      batchCount = writer.batches();
      pairCount = writer.pairs();
    }
    return new ShardInfo(path.getName(), batchCount, pairCount, real, padded, fs.getFileStatus(path).getLen());
  }

  public static List<ShardInfo> sorted(List<ShardInfo> shards) {
    List<ShardInfo> out = new ArrayList<>(shards);
    out.sort((a, b) -> a.file().compareTo(b.file()));
    return out;
  }
}
