package org.sparknmt.base.lines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lines of plain and compressed text through Hadoop's split machinery, and the maximum line length. */
class BoundedTextInputFormatTest {
  private static final Configuration CONF = new Configuration();
  @TempDir java.nio.file.Path dir;

  private static List<String> read(Path file, long start, long length) throws IOException, InterruptedException {
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(CONF, new TaskAttemptID());
    List<String> lines = new ArrayList<>();
    try (RecordReader<org.apache.hadoop.io.LongWritable, org.apache.hadoop.io.Text> reader =
        new BoundedTextInputFormat().createRecordReader(null, context)) {
      reader.initialize(new FileSplit(file, start, length, new String[0]), context);
      while (reader.nextKeyValue()) {
        lines.add(new String(Arrays.copyOf(reader.getCurrentValue().getBytes(), reader.getCurrentValue().getLength()),
            StandardCharsets.UTF_8));
      }
    }
    return lines;
  }

  @Test
  void everyLineIsReadOnceWhereverTheSplitsFall() throws Exception {
    String text = "\uFEFFeins\nzwei\r\n\ndrei mit \r darin\nvier ohne Ende";
    java.nio.file.Path file = Files.writeString(dir.resolve("a.txt"), text);
    List<String> expected = List.of("eins", "zwei\r", "", "drei mit \r darin", "vier ohne Ende");
    long length = Files.size(file);
    for (long size = 1; size <= length; size++) {
      List<String> lines = new ArrayList<>();
      for (long start = 0; start < length; start += size) {
        lines.addAll(read(new Path(file.toUri()), start, Math.min(size, length - start)));
      }
      assertEquals(expected, lines, "splits of " + size + " bytes");
    }
  }

  @Test
  void aCompressedFileIsReadWhole() throws Exception {
    java.nio.file.Path file = dir.resolve("a.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("eins\nzwei\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(List.of("eins", "zwei"), read(new Path(file.toUri()), 0, Files.size(file)));
  }

  @Test
  void aLineOverTheMaximumIsANamedErrorNotAnOutOfMemoryError() throws IOException {
    java.nio.file.Path file = dir.resolve("long.txt.gz");
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'a');
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("kurz\n".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i <= BoundedTextInputFormat.MAX_LINE_BYTES / chunk.length; i++) {
        out.write(chunk);
      }
      out.write("\nkurz\n".getBytes(StandardCharsets.UTF_8));
    }
    IOException e = assertThrows(IOException.class, () -> read(new Path(file.toUri()), 0, Files.size(file)));
    assertEquals(new Path(file.toUri()) + ": the line at byte 5 is longer than " + BoundedTextInputFormat.MAX_LINE_BYTES
        + " bytes, the most a line of text input may have (is it a text file with a line a sentence?)", e.getMessage());
    assertTrue(BoundedTextInputFormat.MAX_LINE_BYTES >= 1 << 20);
  }
}
