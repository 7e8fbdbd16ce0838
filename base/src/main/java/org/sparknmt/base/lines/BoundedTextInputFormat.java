package org.sparknmt.base.lines;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.LineReader;

/**
 * Text lines as Hadoop's {@link TextInputFormat} reads them with {@code textinputformat.record.delimiter
 * = \n} (keyed by their byte offset in the uncompressed text, a leading UTF-8 byte order mark dropped),
 * with a maximum line length: a line over {@value #MAX_LINE_BYTES} bytes is an error naming the file and
 * the line's offset, after at most that many bytes were held. Hadoop's reader holds a whole line (a
 * 2.5 GB line is an OutOfMemoryError), and its own {@code mapreduce.input.linerecordreader.line.maxlength}
 * skips long lines without a word, which would shift every later line against its pair or translation.
 * Plain files are split as Hadoop splits them; a compressed file is read whole by one task.
 */
public final class BoundedTextInputFormat extends TextInputFormat {
  /** The longest line read: far beyond any sentence, well inside a task's memory. */
  public static final int MAX_LINE_BYTES = 1 << 24;
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  @Override
  public RecordReader<LongWritable, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
    return new Reader();
  }

  @Override
  protected boolean isSplitable(JobContext context, Path file) {
    return new CompressionCodecFactory(context.getConfiguration()).getCodec(file) == null;
  }

  /** The lines of one split: those that start in (start, end], and the first line of the file in the first split. */
  private static final class Reader extends RecordReader<LongWritable, Text> {
    private final LongWritable key = new LongWritable();
    private final Text value = new Text();
    private Path file;
    private long start;
    private long end;
    private long pos;
    private LineReader lines;
    private Decompressor decompressor;

    @Override
    public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
      FileSplit split = (FileSplit) genericSplit;
      Configuration conf = context.getConfiguration();
      file = split.getPath();
      start = split.getStart();
      end = start + split.getLength();
      FSDataInputStream raw = file.getFileSystem(conf).open(file);
      CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
      InputStream in;
      if (codec == null) {
        raw.seek(start);
        in = raw;
      } else {
        decompressor = CodecPool.getDecompressor(codec);
        in = codec.createInputStream(raw, decompressor);
        end = Long.MAX_VALUE;
      }
      lines = new LineReader(in, conf, new byte[] {'\n'});
      pos = start;
      if (start != 0) {
        // the line that starts before this split (or at its start) is the previous split's
        pos += lines.readLine(new Text(), 0, Integer.MAX_VALUE);
      }
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (pos > end) {
        return false;
      }
      int consumed = lines.readLine(value, MAX_LINE_BYTES + 1, Integer.MAX_VALUE);
      if (consumed == 0) {
        return false;
      }
      if (value.getLength() > MAX_LINE_BYTES) {
        throw new IOException(file + ": the line at byte " + pos + " is longer than " + MAX_LINE_BYTES
            + " bytes, the most a line of text input may have (is it a text file with a line a sentence?)");
      }
      key.set(pos);
      if (pos == 0 && value.getLength() >= BOM.length
          && Arrays.equals(value.getBytes(), 0, BOM.length, BOM, 0, BOM.length)) {
        value.set(Arrays.copyOfRange(value.getBytes(), BOM.length, value.getLength()));
      }
      pos += consumed;
      return true;
    }

    @Override
    public LongWritable getCurrentKey() {
      return key;
    }

    @Override
    public Text getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return end == Long.MAX_VALUE || end == start ? 0 : Math.min(1, (pos - start) / (float) (end - start));
    }

    @Override
    public void close() throws IOException {
      try {
        if (lines != null) {
          lines.close();
        }
      } finally {
        if (decompressor != null) {
          CodecPool.returnDecompressor(decompressor);
          decompressor = null;
        }
      }
    }
  }
}
