package org.sparknmt.job.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.job.TinyRun;
import org.sparknmt.job.checkpoint.TrainedModel;
import org.sparknmt.job.translate.LengthSortedBatches;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.Translation;

/** The driver's validation searches, spread over its threads, translate as one search of all sentences does. */
class ValidationBleuTest {
  private static final int VOCAB = 300;

  @Test
  void searchesOnSeveralThreadsGiveTheOneThreadTranslations() {
    ComputationGraph graph = TransformerFactory.create(TinyRun.MODEL, VOCAB, 5);
    Random random = new Random(3);
    // enough sentences for more than one search part of 64, of lengths 1-12 in no order
    int[][] sources = new int[200][];
    for (int i = 0; i < sources.length; i++) {
      int[] ids = random.ints(1 + random.nextInt(12), 10, VOCAB).toArray();
      sources[i] = TrainedModel.source(ids);
    }
    int threads = Nd4j.getEnvironment().maxMasterThreads();

    Translation[] parallel = ValidationBleu.greedy(graph, sources);
    Translation[] single = LengthSortedBatches.translate(TrainedModel.translator(graph), sources, DecodingOptions.greedy(), 64);

    assertEquals(sources.length, parallel.length);
    for (int i = 0; i < sources.length; i++) {
      assertArrayEquals(single[i].tokens(), parallel[i].tokens(), "sentence " + i);
      assertEquals(single[i].score(), parallel[i].score(), 1e-5, "sentence " + i);
    }
    assertEquals(threads, Nd4j.getEnvironment().maxMasterThreads(), "the driver gets every ND4J thread back");
  }
}
