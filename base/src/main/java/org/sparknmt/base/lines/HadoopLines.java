package org.sparknmt.base.lines;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * The lines of a text corpus on any Hadoop file system, in file order: a file (plain or compressed,
 * e.g. {@code .gz}), a directory of part files as Spark writes them, or a glob. Lines are what
 * sacreBLEU reads: they end at '\n' only (a '\r' stays in the line, where it is whitespace), and a
 * UTF-8 byte order mark stays at the start of the first line. Bytes that are not UTF-8 fail the job
 * naming the file and the line's byte offset, as sacreBLEU's Python fails on them, rather than
 * becoming U+FFFD: a file in another encoding would otherwise be translated or scored as garbage.
 * A line longer than {@link BoundedTextInputFormat#MAX_LINE_BYTES} fails the job naming the file and
 * the line's byte offset.
 */
public final class HadoopLines {
  private static final String BOM = "\uFEFF";

  private HadoopLines() {}

  /**
   * The lines of {@code uri}, partitions in the order of its files, files sorted by name.
   *
   * @param option the command-line option that named the input, for error messages
   * @throws IllegalArgumentException naming {@code option} and {@code uri} if nothing is there
   */
  public static JavaRDD<String> read(JavaSparkContext sc, String uri, String option) {
    Configuration conf = new Configuration(sc.hadoopConfiguration());
    try {
      Job job = Job.getInstance(conf);
      FileInputFormat.setInputPaths(job, DataFiles.list(uri, option, conf).toArray(Path[]::new));
      JavaNewHadoopRDD<LongWritable, Text> records = (JavaNewHadoopRDD<LongWritable, Text>)
          sc.newAPIHadoopRDD(job.getConfiguration(), BoundedTextInputFormat.class, LongWritable.class, Text.class);
      Broadcast<SerializableConfiguration> readConf = sc.broadcast(new SerializableConfiguration(job.getConfiguration()));
      return records.mapPartitionsWithInputSplit((split, lines) -> keepingBom((FileSplit) split,
          TextSplitRecords.of((FileSplit) split, lines), readConf.value().value()), true);
    } catch (IOException e) {
      throw new UncheckedIOException(option + " " + uri + ": " + e.getMessage(), e);
    }
  }

  /**
   * The lines of one split as strings. Hadoop's reader drops a UTF-8 byte order mark at the start of
   * a file; sacreBLEU keeps it as part of the first token, so it is put back.
   */
  private static Iterator<String> keepingBom(FileSplit split, Iterator<Tuple2<LongWritable, Text>> records, Configuration conf)
      throws IOException {
    boolean bom = split.getStart() == 0 && startsWithBom(split.getPath(), conf);
    return new Iterator<>() {
      private boolean bomPending = bom;

      @Override
      public boolean hasNext() {
        return records.hasNext();
      }

      @Override
      public String next() {
        Tuple2<LongWritable, Text> record = records.next();
        String line = strictUtf8(record._2(), split.getPath(), record._1().get());
        if (bomPending) {
          bomPending = false;
          return BOM + line;
        }
        return line;
      }
    };
  }

  private static String strictUtf8(Text text, Path file, long offset) {
    try {
      return Text.decode(text.getBytes(), 0, text.getLength(), false);
    } catch (CharacterCodingException e) {
      throw new UncheckedIOException(new IOException(file + ": the line at byte " + offset + " is not valid UTF-8", e));
    }
  }

  private static boolean startsWithBom(Path file, Configuration conf) throws IOException {
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
    InputStream raw = file.getFileSystem(conf).open(file);
    try (InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
      return new String(in.readNBytes(3), StandardCharsets.UTF_8).equals(BOM);
    }
  }
}
