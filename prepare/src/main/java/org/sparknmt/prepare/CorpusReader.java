package org.sparknmt.prepare;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.sparknmt.base.lines.BoundedTextInputFormat;
import org.sparknmt.base.lines.TextSplitRecords;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.prepare.clean.RejectReason;
import org.sparknmt.prepare.clean.Verdict;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.prepare.input.RawPair;
import org.sparknmt.prepare.input.TableReader;
import scala.Tuple2;

/**
 * Reads {@link CorpusInput} parts into raw pairs keyed by {@link LineId}. Lines are split on
 * {@code \n} only, as raw bytes: Hadoop's default reader would also split on a lone {@code \r}
 * (shifting one side against the other) and decode invalid UTF-8 leniently. A line is at most
 * {@link BoundedTextInputFormat#MAX_LINE_BYTES} long.
 */
final class CorpusReader {
  private CorpusReader() {}

  /**
   * All parts, numbered by their index in {@code parts}; file pairs are joined by line over
   * {@code partitions}; a table's rows are read by {@link TableReader}.
   */
  static JavaRDD<RawPair> read(JavaSparkContext sc, List<CorpusInput.Part> parts, int partitions) {
    List<JavaRDD<RawPair>> all = new ArrayList<>();
    List<JavaPairRDD<Long, byte[]>> sources = new ArrayList<>();
    List<JavaPairRDD<Long, byte[]>> targets = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      CorpusInput.Part part = parts.get(i);
      int number = i;
      if (part.table() != null) {
        all.add(TableReader.read(sc, part.table(), number));
      } else if (part.tsv()) {
        all.add(lines(sc, part.source(), number).map(line -> splitTsv(line._1, line._2)));
      } else {
        sources.add(lines(sc, part.source(), number));
        targets.add(lines(sc, part.target(), number));
      }
    }
    if (!sources.isEmpty()) {
      JavaPairRDD<Long, byte[]> src = sc.union(sources.toArray(JavaPairRDD[]::new));
      JavaPairRDD<Long, byte[]> tgt = sc.union(targets.toArray(JavaPairRDD[]::new));
      all.add(src.fullOuterJoin(tgt, partitions).map(p -> pair(p._1, p._2._1, p._2._2)));
    }
    return all.size() == 1 ? all.get(0) : sc.union(all.toArray(JavaRDD[]::new));
  }

  /** The lines of one file as ({@link LineId}, raw bytes). */
  private static JavaPairRDD<Long, byte[]> lines(JavaSparkContext sc, String file, int part) {
    JavaNewHadoopRDD<LongWritable, Text> records = (JavaNewHadoopRDD<LongWritable, Text>) sc.newAPIHadoopFile(file,
        BoundedTextInputFormat.class, LongWritable.class, Text.class, new Configuration(sc.hadoopConfiguration()));
    return records.mapPartitionsWithInputSplit((split, lines) -> TextSplitRecords.of((FileSplit) split, lines), true)
        .map(record -> Arrays.copyOf(record._2.getBytes(), record._2.getLength()))
        .zipWithIndex()
        .mapToPair(line -> new Tuple2<>(LineId.of(part, line._2 + 1), line._1));
  }

  /**
   * Fails, naming both files and their line counts, when a file pair's line counts differ, unless
   * {@code allowMisaligned}; then returns those pairs of files (by part number) with why, for
   * {@link #rejectMisalignedParts}. Counted from the paired lines (one pass over data already in
   * memory) rather than by reading every file twice more.
   */
  static Map<Integer, String> checkAligned(JavaRDD<Checked> checked, List<CorpusInput.Part> parts,
      boolean allowMisaligned) {
    Map<Long, Long> counts = checked.map(CorpusReader::alignmentKey).countByValue();
    Map<Integer, String> misaligned = new HashMap<>();
    for (int part = 0; part < parts.size(); part++) {
      long paired = counts.getOrDefault(3L * part, 0L);
      long sourceOnly = counts.getOrDefault(3L * part + 1, 0L);
      long targetOnly = counts.getOrDefault(3L * part + 2, 0L);
      if (sourceOnly > 0 || targetOnly > 0) {
        CorpusInput.Part p = parts.get(part);
        String counted = p.source() + " has " + (paired + sourceOnly) + " lines, " + p.target() + " has "
            + (paired + targetOnly);
        if (!allowMisaligned) {
          throw new IllegalArgumentException("line counts differ: " + counted
              + "; fix the files, or pass --allow-misaligned to reject this pair of files whole");
        }
        misaligned.put(part, counted + ": a line is missing or extra somewhere, so no line of these files can be "
            + "paired by its number");
      }
    }
    return misaligned;
  }

  /**
   * Every line of the {@code misaligned} pairs of files rejected as {@link RejectReason#MISALIGNED}:
   * pairing by line number would mispair every line after a missing one, and where it is missing
   * cannot be told from the files.
   */
  static Checked rejectMisalignedParts(Checked c, Map<Integer, String> misaligned) {
    String why = misaligned.get(LineId.part(c.lineId()));
    if (why == null) {
      return c;
    }
    Verdict.Kept kept = c.kept();
    return new Checked(c.lineId(), c.split(), new Verdict.Rejected(RejectReason.MISALIGNED, why),
        kept == null ? c.rawSource() : kept.source().getBytes(StandardCharsets.UTF_8),
        kept == null ? c.rawTarget() : kept.target().getBytes(StandardCharsets.UTF_8));
  }

  /** {@code 3 * part + (0 paired, 1 source line only, 2 target line only)}. */
  private static long alignmentKey(Checked c) {
    long kind = c.verdict() instanceof Verdict.Rejected r && r.reason() == RejectReason.MISALIGNED
        ? (c.rawTarget() == null ? 1 : 2) : 0;
    return 3L * LineId.part(c.lineId()) + kind;
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
