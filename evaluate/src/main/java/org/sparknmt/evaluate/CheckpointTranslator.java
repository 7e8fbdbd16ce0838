package org.sparknmt.evaluate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.sparknmt.base.checkpoint.CheckpointStore;

/**
 * How a checkpoint evaluation translates: the translate stage, which the command line hands in, so
 * that evaluate scores translations without depending on the stage that makes them.
 */
public interface CheckpointTranslator {
  /**
   * One checkpoint's translation.
   *
   * @param checkpoint the checkpoint's name, which names the translation file too
   * @param hyp the translation file
   * @param sentencesPerSecond lines translated per wall second of the translation job
   */
  record Translated(String checkpoint, long step, Path hyp, double sentencesPerSecond, double tokensPerSecond,
      long lines) {}

  /** Translates {@code source}, {@code sourceLines} lines, with {@code checkpoint} into {@code folder/CHECKPOINT.txt}. */
  Translated translate(CheckpointStore store, CheckpointStore.Checkpoint checkpoint, JavaRDD<String> source,
      long sourceLines, Path folder) throws IOException;

  /** Writes the search settings into the report's {@code search} object. */
  void describe(ObjectNode search);
}
