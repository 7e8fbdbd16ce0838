package org.sparknmt.common.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The printed result, against what sacreBLEU 2.6.0 prints for the same four lines. */
public class EvaluationTest {
  public static final List<String> HYPS = List.of("The cat sat on the mat.", "A dog barks at 5.30 pm!", "", "Das Haus ist gross.");
  public static final List<String> REFS = List.of("The cat sat on a mat.", "The dog barks at 5.30 pm.", "An empty hypothesis.", "Das Haus ist groß.");
  /** sacreBLEU's own output for HYPS and REFS. */
  public static final String SACREBLEU_BLEU = "BLEU = 41.42 78.9/62.5/46.2/30.0 (BP = 0.810 ratio = 0.826 hyp_len = 19 ref_len = 23)";
  public static final String SACREBLEU_CHRF = "chrF2 = 60.61";

  static Evaluation evaluation() {
    return new Evaluation("hyp.txt", "ref.txt", HYPS.size(), Bleu.corpus(HYPS, REFS), Chrf.corpus(HYPS, REFS));
  }

  @Test
  void textIsSacreBleusLinesAndSignatures() {
    assertEquals(List.of(SACREBLEU_BLEU, SACREBLEU_CHRF,
            "BLEU signature: nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
            "chrF2 signature: nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"),
        evaluation().textLines());
  }

  @Test
  void jsonHasScoresSignaturesAndCounts() throws Exception {
    JsonNode json = new ObjectMapper().readTree(evaluation().jsonLine());
    assertEquals(41.4196371318975, json.get("bleu").asDouble(), 1e-9);
    assertEquals(60.605946930579755, json.get("chrf").asDouble(), 1e-9);
    assertEquals(Bleu.SIGNATURE, json.get("signature").get("bleu").asText());
    assertEquals(Chrf.SIGNATURE, json.get("signature").get("chrf").asText());
    assertEquals("[15,10,6,3]", json.get("counts").toString());
    assertEquals("[19,16,13,10]", json.get("totals").toString());
    assertEquals(19, json.get("sys_len").asLong());
    assertEquals(23, json.get("ref_len").asLong());
    assertEquals(4, json.get("lines").asLong());
  }
}
