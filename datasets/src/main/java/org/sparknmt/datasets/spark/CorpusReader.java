package org.sparknmt.datasets.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.sparknmt.datasets.clean.RejectReason;
import org.sparknmt.datasets.shard.LineId;
import scala.Tuple2;

/**
 * Reads {@link CorpusInput} parts into raw pairs keyed by {@link LineId}. Lines are split on
 * {@code \n} only, as raw bytes: Hadoop's default reader would also split on a lone {@code \r}
 * (shifting one side against the other) and decode invalid UTF-8 leniently.
 */
final class CorpusReader {
  private CorpusReader() {}

  /**
   * @param firstPart the part number of the first part (the valid input's parts follow the training input's)
   * @param allowMisaligned whether line counts that differ are a reject of the extra lines instead of an error
   */
  static JavaRDD<RawPair> read(JavaSparkContext sc, List<CorpusInput.Part> parts, int firstPart,
      boolean allowMisaligned, int partitions) {
    List<JavaRDD<RawPair>> all = new ArrayList<>();
    List<JavaPairRDD<Long, byte[]>> sources = new ArrayList<>();
    List<JavaPairRDD<Long, byte[]>> targets = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      CorpusInput.Part part = parts.get(i);
      int number = firstPart + i;
      if (part.tsv()) {
        all.add(lines(sc, part.source(), number).map(line -> splitTsv(line._1, line._2)));
      } else {
        sources.add(lines(sc, part.source(), number));
        targets.add(lines(sc, part.target(), number));
      }
    }
    if (!sources.isEmpty()) {
      JavaPairRDD<Long, byte[]> src = sc.union(sources.toArray(JavaPairRDD[]::new));
      JavaPairRDD<Long, byte[]> tgt = sc.union(targets.toArray(JavaPairRDD[]::new));
      checkAligned(src, tgt, parts, firstPart, allowMisaligned);
      all.add(src.fullOuterJoin(tgt, partitions).map(p -> pair(p._1, p._2._1, p._2._2)));
    }
    return all.size() == 1 ? all.get(0) : sc.union(all.toArray(JavaRDD[]::new));
  }

  /** The lines of one file as ({@link LineId}, raw bytes). */
  private static JavaPairRDD<Long, byte[]> lines(JavaSparkContext sc, String file, int part) {
    Configuration conf = new Configuration(sc.hadoopConfiguration());
    conf.set("textinputformat.record.delimiter", "\n");
    return sc.newAPIHadoopFile(file, TextInputFormat.class, LongWritable.class, Text.class, conf)
        .map(record -> Arrays.copyOf(record._2.getBytes(), record._2.getLength()))
        .zipWithIndex()
        .mapToPair(line -> new Tuple2<>(LineId.of(part, line._2 + 1), line._1));
  }

  private static void checkAligned(JavaPairRDD<Long, byte[]> src, JavaPairRDD<Long, byte[]> tgt,
      List<CorpusInput.Part> parts, int firstPart, boolean allowMisaligned) {
    Map<Integer, Long> srcCounts = src.keys().map(LineId::part).countByValue();
    Map<Integer, Long> tgtCounts = tgt.keys().map(LineId::part).countByValue();
    for (int i = 0; i < parts.size(); i++) {
      CorpusInput.Part part = parts.get(i);
      long s = srcCounts.getOrDefault(firstPart + i, 0L);
      long t = tgtCounts.getOrDefault(firstPart + i, 0L);
      if (!part.tsv() && s != t && !allowMisaligned) {
        throw new IllegalArgumentException("line counts differ: " + part.source() + " has " + s + " lines, "
            + part.target() + " has " + t + "; fix the files or pass --allow-misaligned to reject the unpaired lines");
      }
    }
  }

  private static RawPair pair(long lineId, Optional<byte[]> source, Optional<byte[]> target) {
    if (source.isPresent() && target.isPresent()) {
      return RawPair.of(lineId, source.get(), target.get());
    }
    String missing = source.isPresent() ? "target" : "source";
    return RawPair.rejected(lineId, source.orElse(null), target.orElse(null), RejectReason.MISALIGNED,
        "the " + missing + " file has no line " + LineId.line(lineId));
  }

  /** Tab is one byte in UTF-8 and never part of a multi-byte sequence, so splitting raw bytes is safe. */
  private static RawPair splitTsv(long lineId, byte[] line) {
    int tab = -1;
    int tabs = 0;
    for (int i = 0; i < line.length; i++) {
      if (line[i] == '\t') {
        tabs++;
        tab = tab < 0 ? i : tab;
      }
    }
    if (tabs != 1) {
      return RawPair.rejected(lineId, line, null, RejectReason.TSV_COLUMNS,
          "expected 2 tab-separated columns, found " + (tabs + 1));
    }
    return RawPair.of(lineId, Arrays.copyOf(line, tab), Arrays.copyOfRange(line, tab + 1, line.length));
  }
}
