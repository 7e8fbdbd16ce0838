package org.sparknmt.translate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.DurableFiles;
import org.sparknmt.base.files.FileReplacement;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.model.decode.Shortlist;

/**
 * A vocabulary shortlist as {@code sparknmt shortlist} stores it, {@code RUN/shortlist/shortlist.txt}: UTF-8
 * text, a header of one {@code key value} a line, then one line per source token that has entries,
 * {@code SOURCE_ID<TAB>TARGET_ID TARGET_ID ...}, best first:
 *
 * <pre>
 * sparknmt-shortlist 1
 * vocabulary_sha256 HEX     (the SHA-256 of the run's vocab/bpe.json: a shortlist serves that vocabulary only)
 * vocabulary_size V
 * score dice                (how the targets of a source token are ranked)
 * top K                     (targets per source token)
 * frequent N
 * always ID ID ...          (the N most frequent target tokens, kept for every batch)
 * 7	412 95 ...
 * </pre>
 *
 * @param vocabularySha256 the vocabulary's hash
 * @param score the ranking's name
 * @param top the most targets a source token lists
 * @param frequent how many tokens {@code always} was made of
 */
public record ShortlistFile(String vocabularySha256, String score, int top, int frequent, Shortlist shortlist) {
  /** The first line: the format's name and version. */
  static final String MAGIC = "sparknmt-shortlist 1";
  /** {@code --shortlist run} (and {@code translate.shortlist = run}): the run's own shortlist. */
  public static final String OF_THE_RUN = "run";

  /** The file a {@code translate.shortlist} value names: {@link #OF_THE_RUN} is the run's, anything else a URI. */
  public static Path named(String spec, String runUri) {
    return spec.equals(OF_THE_RUN) ? RunLayout.of(runUri).shortlist() : new Path(spec);
  }

  /** Writes this shortlist to file whole (a temporary file renamed over it). */
  public void write(Path file, Configuration hadoop) throws IOException {
    StringBuilder text = new StringBuilder(MAGIC).append('\n')
        .append("vocabulary_sha256 ").append(vocabularySha256).append('\n')
        .append("vocabulary_size ").append(shortlist.vocabSize()).append('\n')
        .append("score ").append(score).append('\n')
        .append("top ").append(top).append('\n')
        .append("frequent ").append(frequent).append('\n')
        .append("always").append(ids(shortlist.always())).append('\n');
    for (int s = 0; s < shortlist.vocabSize(); s++) {
      int[] targets = shortlist.targets(s);
      if (targets.length > 0) {
        text.append(s).append('\t').append(ids(targets).substring(1)).append('\n');
      }
    }
    FileSystem fs = file.getFileSystem(hadoop);
    Path partial = new Path(file.getParent(), "." + file.getName() + ".partial");
    try (OutputStream out = DurableFiles.create(fs, partial, true)) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    FileReplacement.replace(fs, partial, file);
  }

  private static String ids(int[] ids) {
    StringBuilder s = new StringBuilder();
    for (int id : ids) {
      s.append(' ').append(id);
    }
    return s.toString();
  }

  /**
   * Reads a shortlist file.
   *
   * @throws UsageException naming the file (and the line) when it is missing or not a shortlist of this format
   */
  public static ShortlistFile read(Path file, Configuration hadoop) throws IOException {
    FileSystem fs = file.getFileSystem(hadoop);
    if (!fs.exists(file)) {
      throw new UsageException("shortlist " + file + " does not exist (sparknmt shortlist --run RUN writes one in RUN/shortlist/)");
    }
    List<String> lines = new ArrayList<>();
    try (InputStream in = fs.open(file);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
    }
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
      throw new UsageException("shortlist " + file + " line 1: expected '" + MAGIC + "', got "
          + (lines.isEmpty() ? "an empty file" : "'" + lines.get(0) + "'"));
    }
    Reader r = new Reader(file, lines);
    String sha = r.value(2, "vocabulary_sha256");
    int vocab = r.number(3, "vocabulary_size", r.value(3, "vocabulary_size"));
    String score = r.value(4, "score");
    int top = r.number(5, "top", r.value(5, "top"));
    int frequent = r.number(6, "frequent", r.value(6, "frequent"));
    int[] always = r.ids(7, r.value(7, "always"), vocab);
    int[][] bySource = new int[vocab][];
    for (int n = 8; n <= lines.size(); n++) {
      String line = lines.get(n - 1);
      int tab = line.indexOf('\t');
      if (tab < 0) {
        throw r.error(n, "expected SOURCE_ID<TAB>TARGET_IDS, got '" + line + "'");
      }
      int s = r.number(n, "source id", line.substring(0, tab));
      if (s >= vocab || bySource[s] != null) {
        throw r.error(n, "source id " + s + (s >= vocab ? " is outside the vocabulary of " + vocab : " listed twice"));
      }
      bySource[s] = r.ids(n, line.substring(tab + 1), vocab);
    }
    return new ShortlistFile(sha, score, top, frequent, new Shortlist(vocab, bySource, always));
  }

  /** Reads a file's numbered lines, with errors naming the file and line. */
  private record Reader(Path file, List<String> lines) {
    UsageException error(int line, String reason) {
      return new UsageException("shortlist " + file + " line " + line + ": " + reason);
    }

    /** The value of line n, which must be {@code key value} (or {@code key} alone for an empty value). */
    String value(int n, String key) {
      String line = n <= lines.size() ? lines.get(n - 1) : "";
      if (!(line.equals(key) || line.startsWith(key + " "))) {
        throw error(n, "expected '" + key + " ...', got '" + line + "'");
      }
      return line.substring(key.length()).strip();
    }

    int number(int n, String what, String text) {
      try {
        int value = Integer.parseInt(text);
        if (value >= 0) {
          return value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw error(n, what + " must be a non-negative integer, got '" + text + "'");
    }

    int[] ids(int n, String text, int vocab) {
      if (text.isBlank()) {
        return new int[0];
      }
      int[] ids = Arrays.stream(text.strip().split(" +")).mapToInt(t -> number(n, "a token id", t)).toArray();
      for (int id : ids) {
        if (id >= vocab) {
          throw error(n, "token id " + id + " is outside the vocabulary of " + vocab + " tokens");
        }
      }
      return ids;
    }
  }
}
