package org.sparknmt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparknmt.model.nn.TransformerConfig;

class TransformerConfigTest {
  private static final TransformerConfig FROM = new TransformerConfig(16, 2, 32, 1, 32, 0.0, 0.0, 0.1, true, false, false);

  @Test
  void theBuilderChangesOnlyWhatItNames() {
    assertEquals(FROM, FROM.toBuilder().build());
    assertEquals(new TransformerConfig(16, 2, 32, 3, 32, 0.0, 0.0, 0.1, true, true, false),
        FROM.toBuilder().layers(3).preNorm(true).build());
    assertEquals(new TransformerConfig(64, 4, 128, 2, 128, 0.3, 0.1, 0.2, false, true, true),
        FROM.toBuilder().dModel(64).heads(4).dFf(128).layers(2).maxLength(128).dropout(0.3).attentionDropout(0.1)
            .labelSmoothing(0.2).shareEmbeddings(false).preNorm(true).learnedPositions(true).build());
  }

  @Test
  void theBuilderValidatesOnceAtTheEnd() {
    // 3 heads do not divide d_model 16, but they divide the 48 set after them
    assertEquals(3, FROM.toBuilder().heads(3).dModel(48).build().heads());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FROM.toBuilder().heads(3).build());
    assertTrue(e.getMessage().contains("divisible by heads"), e.getMessage());
  }
}
