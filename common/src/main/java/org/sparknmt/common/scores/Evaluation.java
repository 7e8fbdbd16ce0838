package org.sparknmt.common.scores;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The result of one evaluation: which files, how many lines, the BLEU and chrF scores.
 *
 * @param hyp the hypothesis URI
 * @param ref the reference URI
 * @param lines aligned lines scored
 */
public record Evaluation(String hyp, String ref, long lines, BleuScore bleu, ChrfScore chrf) {
  /** The sacreBLEU signatures of both metrics, one line each. */
  public static final List<String> SIGNATURE_LINES =
      List.of("BLEU signature: " + Bleu.SIGNATURE, ChrfScore.NAME + " signature: " + Chrf.SIGNATURE);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** sacreBLEU's score lines, then the signatures that say how they were computed. */
  public List<String> textLines() {
    return List.of(bleu.format(), chrf.format(), SIGNATURE_LINES.get(0), SIGNATURE_LINES.get(1));
  }

  /** sacreBLEU's score lines: {@code BLEU = ...} and {@code chrF2 = ...}. */
  public List<String> scoreLines() {
    return List.of(bleu.format(), chrf.format());
  }

  /**
   * One JSON object: {@code bleu}, {@code chrf} (unrounded), {@code signature} ({@code bleu},
   * {@code chrf}), BLEU's details under sacreBLEU's names, and the inputs.
   */
  public ObjectNode json() {
    ObjectNode root = JSON.createObjectNode();
    root.put("bleu", bleu.score());
    root.put("chrf", chrf.score());
    ObjectNode signature = root.putObject("signature");
    signature.put("bleu", Bleu.SIGNATURE);
    signature.put("chrf", Chrf.SIGNATURE);
    ArrayNode counts = root.putArray("counts");
    ArrayNode totals = root.putArray("totals");
    ArrayNode precisions = root.putArray("precisions");
    for (int n = 0; n < Bleu.MAX_ORDER; n++) {
      counts.add(bleu.counts()[n]);
      totals.add(bleu.totals()[n]);
      precisions.add(bleu.precisions()[n]);
    }
    root.put("bp", bleu.bp());
    root.put("ratio", bleu.ratio());
    root.put("sys_len", bleu.sysLen());
    root.put("ref_len", bleu.refLen());
    root.put("lines", lines);
    root.put("hyp", hyp);
    root.put("ref", ref);
    return root;
  }

  /** {@link #json()} on one line. */
  public String jsonLine() {
    try {
      return JSON.writeValueAsString(json());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the evaluation as JSON", e);
    }
  }
}
