package org.sparknmt.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;

/** What {@code sparknmt memory --run} plans for translation, against the sizes counted by hand. */
class DecodingMemoryTest {
  /** The Multi30k recipe's model (conf/multi30k-en-de.conf), with its vocabulary of 8000. */
  private static final TransformerConfig RECIPE = JobConfig.load(null, List.of("model.d_model=256", "model.heads=4",
      "model.d_ff=1024", "model.layers=3", "model.max_length=256", "model.share_embeddings=true"))
      .bind("model", TransformerConfig.class);
  private static final int VOCAB = 8000;

  @Test
  void theRecipesBeamFourSearchOfMulti30kValid() {
    // batches of 128, beam 4, sources of up to 43 subwords (the validation set's longest): outputs of up to
    // floor(1.5 * 43) + 10 = 74 positions (the keys padded to 80), sources of 44 with EOS
    DecodingMemory plan = DecodingMemory.of(RECIPE, VOCAB, 1, 128, 4, 43, 1.5, 10);
    assertEquals(7_577_600, plan.parameters());
    // 3 layers x 256 x (512 hypotheses x (80 + 74) + 128 x 8 x 44) + 128 x 44 x 256 floats
    long cache = 768L * (512 * 154 + 128 * 8 * 44) + 128 * 44 * 256;
    assertEquals(96_600_064, cache);
    assertEquals(4 * cache, plan.searchBytes());
    // an encoder layer, 128 x 44 tokens x (14 x 256 + 2 x 1024 + 2 x 4 heads x 44), beats a step's 512 x 3 x 8000
    assertEquals(4 * 33_701_888L, plan.stepBytes());
    // 256 MiB + 32 bytes x 7,577,600 = 487.3 MiB
    assertEquals(488, plan.heapMib());
    // 512 MiB + 4 bytes a parameter + two searches' workspaces (368.5 + 128.6 MiB each)
    assertEquals(1536, plan.nativeMib(2));
    assertEquals(488 + 1536, plan.processMib(2));
  }

  @Test
  void anEnsembleHoldsEachModelsCachesAndLogits() {
    DecodingMemory one = DecodingMemory.of(RECIPE, VOCAB, 1, 128, 4, 43, 1.5, 10);
    DecodingMemory two = DecodingMemory.of(RECIPE, VOCAB, 2, 128, 4, 43, 1.5, 10);
    assertEquals(4 * 2 * 96_600_064L, two.searchBytes());
    // the encoders run one after another: the step's workspace is the larger of one encoder layer and both models' logits
    assertEquals(one.stepBytes(), two.stepBytes());
    assertEquals(719, two.heapMib(), "256 MiB + 2 x 32 bytes x 7,577,600");
  }

  @Test
  void outputsStopAtTheModelsLength() {
    // 1.5 x 254 + 10 = 391 positions, but the model has 256: the keys padded to 256, sources of 255 with EOS
    DecodingMemory plan = DecodingMemory.of(RECIPE, VOCAB, 1, 128, 4, 254, 1.5, 10);
    long cache = 768L * (512 * (256 + 256) + 128 * 8 * 255) + 128 * 255 * 256;
    assertEquals(4 * cache, plan.searchBytes());
    assertTrue(plan.searchBytes() > DecodingMemory.of(RECIPE, VOCAB, 1, 128, 4, 43, 1.5, 10).searchBytes() * 4);
  }

  @Test
  void aBatchOfNothingIsAnErrorNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DecodingMemory.of(RECIPE, VOCAB, 1, 0, 4, 43, 1.5, 10));
    assertTrue(e.getMessage().contains("translate.batch_size"), e.getMessage());
  }
}
