package org.sparknmt.train;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.Function2;
import org.nd4j.linalg.api.ndarray.INDArray;
import scala.Tuple2;

/**
 * Reducer j of a round ({@link SliceReducers}): the mean of the workers' slice j, summed in worker order
 * (the shuffle sorts by worker) and divided by the number of workers that had batches, with the same
 * float operations in the same order as one sum of whole states would make: ((w0 + w1) + w2) … / W.
 * So the round's result does not depend on which worker finished first, nor on S.
 */
final class AverageSlice
    implements Function2<Integer, Iterator<Tuple2<Long, FitBatchesAsGiven.WorkerSlice>>, Iterator<AverageSlice.Averaged>> {

  /**
   * The mean of slice {@code slice}, and the scores and step workspaces of the workers that had
   * batches, in worker order (every slice carries them; the driver reads one).
   */
  record Averaged(int slice, FloatChunks parameters, FloatChunks updater, double[] scores, long[] stepWorkspaceBytes)
      implements Serializable {}

  @Override
  public Iterator<Averaged> call(Integer slice, Iterator<Tuple2<Long, FitBatchesAsGiven.WorkerSlice>> parts) {
    if (!parts.hasNext()) {
      return Collections.emptyIterator();
    }
    INDArray parameters = null;
    INDArray updater = null;
    List<Double> scores = new ArrayList<>();
    List<Long> workspaces = new ArrayList<>();
    while (parts.hasNext()) {
      FitBatchesAsGiven.WorkerSlice part = parts.next()._2();
      parameters = parameters == null ? part.parameters().row() : parameters.addi(part.parameters().row());
      if (part.updater() != null) {
        updater = updater == null ? part.updater().row() : updater.addi(part.updater().row());
      }
      scores.add(part.score());
      workspaces.add(part.stepWorkspaceBytes());
    }
    int workers = scores.size();
    return Collections.singletonList(new Averaged(slice, FloatChunks.of(parameters.divi(workers)),
        updater == null ? null : FloatChunks.of(updater.divi(workers)),
        scores.stream().mapToDouble(Double::doubleValue).toArray(),
        workspaces.stream().mapToLong(Long::longValue).toArray())).iterator();
  }
}
