package org.sparknmt.model.decode;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/** How a search step turns its logits into the candidate continuations of each live hypothesis. */
interface Continuations {
  /**
   * @param logits [rows, tokens scored], float, contiguous row by row: the active hypotheses of the live beams, beam by beam
   * @param live the beams searched in this step
   * @param scored the tokens of the logits' columns: the continuations returned are columns, and a beam's forced
   *     token is found at {@link StepTokens#column}
   */
  NextTokens of(INDArray logits, List<Beam> live, StepTokens scored);
}
