package org.sparknmt.translate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The hypotheses of lines that arrive in blocks (standard input), in an output format: the lines are
 * numbered across blocks (0 = the first), as the job numbers the lines of its input, and given their
 * prefixes, read from the prefix file block by block.
 */
public final class NumberedLines implements Function<List<String>, List<String>> {
  private final SentenceTranslator translator;
  private final HypothesesConfig hypotheses;
  private final TargetPrefixes prefixes;
  private long next;

  /** @param prefixes the target prefixes of the lines, in their order, or null for none */
  public NumberedLines(SentenceTranslator translator, HypothesesConfig hypotheses, TargetPrefixes prefixes) {
    this.translator = translator;
    this.hypotheses = hypotheses;
    this.prefixes = prefixes;
  }

  @Override
  public List<String> apply(List<String> lines) {
    long[] ids = new long[lines.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = next + i;
    }
    List<String> forced;
    try {
      forced = prefixes == null ? null : prefixes.next(lines.size(), "standard input");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<List<LineHypothesis>> found = translator.hypotheses(lines, ids, forced, hypotheses);
    List<String> out = new ArrayList<>(lines.size());
    for (int i = 0; i < ids.length; i++) {
      out.add(hypotheses.outputFormat().format(ids[i], found.get(i)));
    }
    next += lines.size();
    return out;
  }
}
