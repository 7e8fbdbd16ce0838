package org.sparknmt.model.decode;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/** How a search step turns its logits into the candidate continuations of each live hypothesis. */
interface Continuations {
  /**
   * @param logits [rows, vocab], float, contiguous row by row: the active hypotheses of the live beams, beam by beam
   * @param live the beams searched in this step
   */
  NextTokens of(INDArray logits, List<Beam> live);
}
