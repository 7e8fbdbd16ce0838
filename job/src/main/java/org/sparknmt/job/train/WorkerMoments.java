package org.sparknmt.job.train;

import java.io.Serializable;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.storage.TestBlockId;
import scala.Option;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * DiLoCo's inner optimizer state ({@code train.local_updater_state}): each worker slot keeps its own
 * Adam moments from one round to the next, and only the parameters are averaged. A slot's moments after
 * a round stay in the block manager of the executor that fitted it, named by the application, the slot
 * and the global step they were left at; the slot's task in the next round reads them from there (from
 * another executor's block manager over the network when its task moved), and the driver removes a
 * round's inputs once the round is done.
 *
 * <p>They live only as long as the executors: moments lost with an executor fail the round, and a
 * resumed run starts every worker's moments afresh (checkpoints hold the driver's state only).
 *
 * @param application the Spark application's id: block names of two runs never meet
 * @param readStep the global step whose moments this round's workers start from; -1 when none were left
 *     (the first round of this driver)
 * @param writeStep the global step this round's workers leave their moments at
 */
record WorkerMoments(String application, long readStep, long writeStep) implements Serializable {
  private static final ClassTag<FloatChunks> TAG = ClassTag$.MODULE$.apply(FloatChunks.class);

  /** Slot {@code worker}'s moments from the last round; null in the first round of a driver. */
  FloatChunks read(int worker) {
    if (readStep < 0) {
      return null;
    }
    Option<FloatChunks> kept = SparkEnv.get().blockManager().getSingle(block(worker, readStep), TAG);
    if (kept.isEmpty()) {
      throw new IllegalStateException("worker " + worker + "'s Adam moments of step " + readStep
          + " are gone (their executor was lost): with train.local_updater_state they live only in the executors;"
          + " rerun the same command to resume from the last checkpoint with fresh moments");
    }
    return kept.get();
  }

  /** Keeps slot {@code worker}'s moments after this round (a rerun task's equal bits leave the first copy). */
  void write(int worker, FloatChunks moments) {
    SparkEnv.get().blockManager().putSingle(block(worker, writeStep), moments, StorageLevel.MEMORY_AND_DISK(), true, TAG);
  }

  /** On the driver, once the round is done: the moments it started from are no longer needed anywhere. */
  void removeRead(int workers) {
    if (readStep >= 0) {
      for (int worker = 0; worker < workers; worker++) {
        SparkEnv.get().blockManager().master().removeBlock(block(worker, readStep));
      }
    }
  }

  private BlockId block(int worker, long step) {
    return new TestBlockId("sparknmt-moments-" + application + "-" + worker + "-" + step);
  }
}
