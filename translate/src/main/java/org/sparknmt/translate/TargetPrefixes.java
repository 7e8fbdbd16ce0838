package org.sparknmt.translate;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.sparknmt.base.UsageException;
import scala.Tuple2;

/**
 * The file of {@code --prefix} ({@code translate.prefix}): the target prefix of each input line, line for
 * line, read as the input is read (an empty line: no prefix). Its line count must be the input's; a
 * difference is an error naming both and the first line without a partner.
 */
public final class TargetPrefixes {
  private final Utf8Lines lines;
  private final String uri;
  private long read;

  private TargetPrefixes(Utf8Lines lines, String uri) {
    this.lines = lines;
    this.uri = uri;
  }

  /** The prefixes of {@code uri}, a file on any Hadoop file system (plain or compressed), read as they are asked for. */
  public static TargetPrefixes open(String uri, Configuration hadoop) throws IOException {
    Path path = new Path(uri);
    FileSystem fs = path.getFileSystem(hadoop);
    if (!fs.isFile(path)) {
      throw new UsageException("--prefix (translate.prefix) " + uri + ": no such file");
    }
    CompressionCodec codec = new CompressionCodecFactory(hadoop).getCodec(path);
    InputStream in = fs.open(path);
    return new TargetPrefixes(new Utf8Lines(codec == null ? in : codec.createInputStream(in), "--prefix " + uri), uri);
  }

  /** The prefixes of the next {@code count} input lines of {@code input}. */
  public List<String> next(int count, String input) throws IOException {
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String line = lines.next();
      if (line == null) {
        throw mismatch(uri, read, input);
      }
      out.add(line);
      read++;
    }
    return out;
  }

  /** Fails when the file has lines left once {@code input} has ended. */
  public void end(String input) throws IOException {
    if (lines.next() != null) {
      throw new IllegalArgumentException("--prefix " + uri + " has more lines than " + input + " (" + read + "): line "
          + (read + 1) + " of --prefix " + uri + " has no input line");
    }
  }

  /**
   * Each of {@code lines} numbered (0 = the first) with its line of {@code prefixes}, in the order of
   * {@code lines} and in as many partitions: the two are joined on the line number and sorted by it.
   */
  public static JavaRDD<NumberedLine> aligned(JavaRDD<String> lines, String inputUri, JavaRDD<String> prefixes,
      String prefixUri) {
    JavaPairRDD<Long, String> input = lines.zipWithIndex().mapToPair(Tuple2::swap);
    JavaPairRDD<Long, String> prefix = prefixes.zipWithIndex().mapToPair(Tuple2::swap);
    long inputLines = input.count();
    long prefixLines = prefix.count();
    if (inputLines != prefixLines) {
      throw inputLines > prefixLines ? mismatch(prefixUri, prefixLines, "--input " + inputUri)
          : new IllegalArgumentException("--prefix " + prefixUri + " has " + prefixLines + " lines, --input " + inputUri
              + " " + inputLines + ": line " + (inputLines + 1) + " of --prefix " + prefixUri + " has no input line");
    }
    return input.join(prefix).sortByKey(true, lines.getNumPartitions())
        .map(p -> new NumberedLine(p._2()._1(), p._1(), p._2()._2()));
  }

  private static IllegalArgumentException mismatch(String prefixUri, long prefixLines, String input) {
    return new IllegalArgumentException("--prefix " + prefixUri + " has " + prefixLines + " lines, fewer than " + input
        + ": line " + (prefixLines + 1) + " of " + input + " has no prefix");
  }
}
