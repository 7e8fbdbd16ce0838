package org.sparknmt.job.translate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The hypotheses of lines that arrive in blocks (standard input), in an output format: the lines are
 * numbered across blocks (0 = the first), as the job numbers the lines of its input.
 */
public final class NumberedLines implements Function<List<String>, List<String>> {
  private final SentenceTranslator translator;
  private final HypothesesConfig hypotheses;
  private long next;

  public NumberedLines(SentenceTranslator translator, HypothesesConfig hypotheses) {
    this.translator = translator;
    this.hypotheses = hypotheses;
  }

  @Override
  public List<String> apply(List<String> lines) {
    long[] ids = new long[lines.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = next + i;
    }
    List<List<LineHypothesis>> found = translator.hypotheses(lines, ids, hypotheses);
    List<String> out = new ArrayList<>(lines.size());
    for (int i = 0; i < ids.length; i++) {
      out.add(hypotheses.outputFormat().format(ids[i], found.get(i)));
    }
    next += lines.size();
    return out;
  }
}
