package org.sparknmt.base.lines;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import scala.Tuple2;

/**
 * The records of one split of a text file, whose read failures name the file and where reading
 * stopped. Hadoop's reader fails a truncated {@code .gz} with a bare "Unexpected end of input stream",
 * which would reach the user as the last line of a Spark stack trace without saying which file.
 */
public final class TextSplitRecords {
  private TextSplitRecords() {}

  /** {@code records} read from {@code split}, their I/O errors rethrown naming the file and the byte offset. */
  public static Iterator<Tuple2<LongWritable, Text>> of(FileSplit split, Iterator<Tuple2<LongWritable, Text>> records) {
    return new Iterator<>() {
      /** Where the next line starts, in the (uncompressed) text: after the last line read. */
      private long offset = split.getStart();

      @Override
      public boolean hasNext() {
        try {
          return records.hasNext();
        } catch (Exception e) {
          throw named(e);
        }
      }

      @Override
      public Tuple2<LongWritable, Text> next() {
        try {
          Tuple2<LongWritable, Text> record = records.next();
          offset = record._1().get() + record._2().getLength() + 1;
          return record;
        } catch (Exception e) {
          throw named(e);
        }
      }

      /** Spark's iterator throws the reader's checked IOException undeclared, so it is caught as an Exception. */
      private RuntimeException named(Exception e) {
        if (e instanceof IOException io) {
          String why = io instanceof EOFException ? " (the file ends early: truncated or damaged?)" : "";
          return new UncheckedIOException(new IOException(split.getPath() + ": reading failed after byte " + offset
              + " of its text: " + io.getMessage() + why, io));
        }
        return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
      }
    };
  }
}
