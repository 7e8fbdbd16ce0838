package org.sparknmt.model.decode;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/** How a search step turns its decoder states into the candidate continuations of each live hypothesis. */
interface Continuations {
  /**
   * @param states [rows, d_model]: the active hypotheses of the live beams, beam by beam
   * @param live the beams searched in this step
   */
  NextTokens of(INDArray states, List<Beam> live);
}
