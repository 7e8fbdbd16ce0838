package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.threads.WorkspaceThreads;
import org.sparknmt.common.vocab.SpecialTokens;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthSortedBatches;
import org.sparknmt.model.decode.Translation;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/** Validation's greedy translations, searched in shares at once, are those of one search, in the sources' order. */
class ValidationBleuTest {
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local[2]");
  private static final int VOCABULARY = 300;

  @Test
  void sharesSearchedAtOnceTranslateAsOneSearch() {
    TrainConfig train = JobConfig.load(null, List.of("train.valid_bleu_sentences=0")).bind("train", TrainConfig.class);
    ComputationGraph graph = new TrainJob(SPARK.sc(), "unused", TinyRun.MODEL, train, "").create(VOCABULARY);
    Random random = new Random(3);
    int[][] sources = new int[11][];
    for (int i = 0; i < sources.length; i++) {
      int[] ids = new int[1 + random.nextInt(9)];
      for (int t = 0; t < ids.length; t++) {
        ids[t] = SpecialTokens.FIRST_CHAR + random.nextInt(VOCABULARY - SpecialTokens.FIRST_CHAR);
      }
      sources[i] = TrainedModel.source(ids);
    }
    Translation[] alone = LengthSortedBatches.translate(TrainedModel.translator(graph), sources, DecodingOptions.greedy(), 4);
    WorkspaceThreads threads = WorkspaceThreads.forSearches(60);

    for (int searches : new int[] {1, 2, 3}) {
      Translation[] shared = ValidationBleu.translate(graph, sources, threads, searches);
      for (int i = 0; i < sources.length; i++) {
        assertArrayEquals(alone[i].tokens(), shared[i].tokens(), searches + " searches, sentence " + i);
      }
    }
    assertEquals(3, threads.threads());
  }
}
