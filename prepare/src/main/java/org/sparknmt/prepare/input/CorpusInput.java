package org.sparknmt.prepare.input;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.lines.DataFiles;
import org.sparknmt.common.table.TableFormat;

/**
 * Where raw pairs come from, on any Hadoop file system: two aligned files (plain, .gz or .bz2; one
 * sentence a line), one TSV file ({@code source<TAB>target}), folders of such parts, or two string
 * columns of a table. Folders are read part by part in name order, files starting with {@code _} or
 * {@code .} skipped; aligned folders pair their i-th parts.
 */
public sealed interface CorpusInput extends Serializable
    permits CorpusInput.Aligned, CorpusInput.Tsv, CorpusInput.Table {

  /**
   * One unit of input with its own line numbers: a file pair, a TSV file ({@code target == null}),
   * or a table ({@code table != null}, {@code source} its URI; rows numbered in Spark's read order).
   */
  record Part(String source, String target, Table table) implements Serializable {
    Part(String source, String target) {
      this(source, target, null);
    }

    public boolean tsv() {
      return target == null && table == null;
    }
  }

  /** The parts, resolved against the file system. */
  List<Part> parts(Configuration conf) throws IOException;

  /** {@code --src} and {@code --tgt}: two files (or folders) with one sentence a line. */
  record Aligned(String source, String target) implements CorpusInput {
    @Override
    public List<Part> parts(Configuration conf) throws IOException {
      List<String> src = files(source, conf);
      List<String> tgt = files(target, conf);
      if (src.size() != tgt.size()) {
        throw new IllegalArgumentException(source + " holds " + src.size() + " parts but " + target + " holds "
            + tgt.size() + "; aligned folders need the same number of parts");
      }
      List<Part> parts = new ArrayList<>();
      for (int i = 0; i < src.size(); i++) {
        parts.add(new Part(src.get(i), tgt.get(i)));
      }
      return parts;
    }
  }

  /** {@code --tsv}: a file (or folder) of {@code source<TAB>target} lines. */
  record Tsv(String path) implements CorpusInput {
    @Override
    public List<Part> parts(Configuration conf) throws IOException {
      return files(path, conf).stream().map(f -> new Part(f, null)).toList();
    }
  }

  /** {@code --table}: the string columns {@code sourceColumn} and {@code targetColumn} of the table at {@code uri}. */
  record Table(String uri, TableFormat format, String sourceColumn, String targetColumn) implements CorpusInput {
    @Override
    public List<Part> parts(Configuration conf) throws IOException {
      Path path = new Path(uri);
      if (!path.getFileSystem(conf).exists(path)) {
        throw new UsageException("table " + uri + " does not exist");
      }
      return List.of(new Part(uri, null, this));
    }

    @Override
    public String toString() {
      return "table " + uri + " (" + format + ", columns " + sourceColumn + ", " + targetColumn + ")";
    }
  }

  /** The data files {@code uri} names, as {@link DataFiles} finds them (an error says "input URI: ..."). */
  private static List<String> files(String uri, Configuration conf) throws IOException {
    return DataFiles.list(uri, "input", conf).stream().map(Path::toString).toList();
  }
}
