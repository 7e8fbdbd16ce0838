package org.sparknmt.common.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SerializableWritable;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.PartitionPruningRDD;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.TaskCompletionListener;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.ShardReader;
import scala.Tuple2;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * The batches of a split keyed by their index in it (shards in name order, batches in file order), in
 * partitions of at most {@code perPartition} consecutive batches of one shard. A partition reads its
 * batches from the shard one at a time, so a task never holds a shard's batches in a list (a shard of a
 * corpus of millions of pairs is hundreds of megabytes of Java objects, outside what Spark's memory
 * manager counts), and a cached partition is a block of bounded size. The indices come from the
 * manifest's batch counts, not from a pass over the data, and {@link #holding} computes only the
 * partitions that hold the batches asked for: a round of W·k batches reads W·k partitions at most,
 * whatever the corpus size.
 */
public final class IndexedBatches {
  private final JavaPairRDD<Long, Batch> rdd;
  /** The index of each partition's first batch, ascending; the last entry is the batch count. */
  private final long[] starts;

  private IndexedBatches(JavaPairRDD<Long, Batch> rdd, long[] starts) {
    this.rdd = rdd;
    this.starts = starts;
  }

  /** What one partition reads: {@code count} batches of {@code file} after its first {@code skip}. */
  record Slice(String file, long first, long skip, int count) implements Serializable {}

  /**
   * @param files the shard files in order
   * @param batches each shard's batch count (the manifest's)
   */
  static IndexedBatches of(JavaSparkContext sc, List<String> files, List<Long> batches, int perPartition) {
    if (perPartition <= 0) {
      throw new IllegalArgumentException("batches per partition must be positive, got " + perPartition);
    }
    List<Slice> slices = new ArrayList<>();
    long first = 0;
    for (int shard = 0; shard < files.size(); shard++) {
      long inShard = batches.get(shard);
      for (long skip = 0; skip < inShard; skip += perPartition) {
        slices.add(new Slice(files.get(shard), first + skip, skip, (int) Math.min(perPartition, inShard - skip)));
      }
      first += inShard;
    }
    long[] starts = new long[slices.size() + 1];
    for (int i = 0; i < slices.size(); i++) {
      starts[i] = slices.get(i).first();
    }
    starts[slices.size()] = first;
    Broadcast<SerializableWritable<Configuration>> hadoop =
        sc.broadcast(new SerializableWritable<>(sc.hadoopConfiguration()));
    JavaPairRDD<Long, Batch> rdd = sc.parallelize(slices, Math.max(1, slices.size()))
        .flatMapToPair(slice -> read(slice, hadoop.value().value()));
    return new IndexedBatches(rdd, starts);
  }

  /** The batches, keyed by index; partition i holds the indices [start(i), start(i + 1)). */
  public JavaPairRDD<Long, Batch> rdd() {
    return rdd;
  }

  /** The number of batches. */
  public long count() {
    return starts[starts.length - 1];
  }

  /** The number of partitions. */
  public int partitions() {
    return starts.length - 1;
  }

  /** The partition that holds batch {@code index}. */
  public int partitionOf(long index) {
    if (index < 0 || index >= count()) {
      throw new IllegalArgumentException("batch " + index + " outside 0.." + (count() - 1));
    }
    int found = Arrays.binarySearch(starts, 0, starts.length - 1, index);
    return found >= 0 ? found : -found - 2;
  }

  /** The same batches cached at {@code level} (unpersist through {@link #rdd()}). */
  public IndexedBatches persist(StorageLevel level) {
    return new IndexedBatches(rdd.persist(level), starts);
  }

  /**
   * The partitions that hold {@code indices}, and no others: the batches of those partitions, the ones
   * asked for among them (filter them by key).
   */
  public JavaPairRDD<Long, Batch> holding(Collection<Long> indices) {
    Set<Integer> needed = new TreeSet<>();
    for (long index : indices) {
      needed.add(partitionOf(index));
    }
    return JavaPairRDD.fromRDD(PartitionPruningRDD.create(rdd.rdd(), new PartitionSet(needed)),
        ClassTag$.MODULE$.apply(Long.class), ClassTag$.MODULE$.apply(Batch.class));
  }

  /** Spark's partition filter, serializable as the pruned RDD's dependency is shipped with its tasks. */
  private static final class PartitionSet extends AbstractFunction1<Object, Object> implements Serializable {
    private final Set<Integer> partitions;

    PartitionSet(Set<Integer> partitions) {
      this.partitions = partitions;
    }

    @Override
    public Object apply(Object partition) {
      return partitions.contains((Integer) partition);
    }
  }

  /** The slice's batches, read one at a time; the shard is closed at the end or when the task ends. */
  static Iterator<Tuple2<Long, Batch>> read(Slice slice, Configuration conf) throws IOException {
    Path path = new Path(slice.file());
    InputStream in = path.getFileSystem(conf).open(path);
    ShardReader reader = new ShardReader(in, slice.file());
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskCompletionListener) context -> reader.close());
    }
    reader.skip(slice.skip());
    return new Iterator<>() {
      private int left = slice.count();
      private long index = slice.first();

      @Override
      public boolean hasNext() {
        return left > 0;
      }

      @Override
      public Tuple2<Long, Batch> next() {
        if (left == 0) {
          throw new NoSuchElementException();
        }
        if (!reader.hasNext()) {
          throw new IllegalStateException("shard " + slice.file() + " ends before batch " + (slice.skip()
              + slice.count() - left + 1) + " of the " + (slice.skip() + slice.count()) + " its manifest counts");
        }
        left--;
        Tuple2<Long, Batch> batch = new Tuple2<>(index++, reader.next());
        if (left == 0 && task == null) {
          reader.close();
        }
        return batch;
      }
    };
  }
}
