package org.sparknmt.translate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/** How {@code sparknmt translate} writes a line's translations ({@code translate.output_format}). */
public enum OutputFormat {
  /** The best translation, one line per input line. */
  TEXT,
  /**
   * fairseq-generate's lines: {@code H-<line>\t<score>\t<text>} for each hypothesis, best first, each
   * followed by {@code A-<line>\t<alignment>} with alignments.
   */
  FAIRSEQ,
  /** One JSON object per input line: {@code {"id":<line>,"hypotheses":[{"text":…,"score":…,"alignment":…}]}}. */
  JSON;

  private static final ObjectMapper JSON_WRITER = new ObjectMapper();

  /** The output of input line {@code line} (0 = the first) with its hypotheses, best first; no final line break. */
  public String format(long line, List<LineHypothesis> hypotheses) {
    switch (this) {
      case TEXT:
        return hypotheses.get(0).text();
      case FAIRSEQ:
        StringBuilder out = new StringBuilder();
        for (LineHypothesis h : hypotheses) {
          out.append(out.length() > 0 ? "\n" : "").append("H-").append(line).append('\t')
              .append(String.format(Locale.ROOT, "%.4f", h.score())).append('\t').append(h.text());
          if (h.alignment() != null) {
            out.append("\nA-").append(line).append('\t').append(h.alignment());
          }
        }
        return out.toString();
      default:
        ObjectNode object = JSON_WRITER.createObjectNode().put("id", line);
        ArrayNode list = object.putArray("hypotheses");
        for (LineHypothesis h : hypotheses) {
          ObjectNode entry = list.addObject().put("text", h.text()).put("score", h.score());
          if (h.alignment() != null) {
            entry.put("alignment", h.alignment());
          }
        }
        try {
          return JSON_WRITER.writeValueAsString(object);
        } catch (JsonProcessingException e) {
          throw new IllegalStateException("cannot write the JSON of line " + line, e);
        }
    }
  }
}
