package org.sparknmt.model;

import org.sparknmt.model.nn.TransformerConfig;

/** The small Transformer the model tests start from; each test names what it changes through the builder. */
public final class TestModels {
  private TestModels() {}

  /** d_model 16, 2 heads, d_ff 32, one layer, 32 positions, no dropout, label smoothing 0.1, the paper's choices. */
  public static TransformerConfig.Builder minimal() {
    return new TransformerConfig(16, 2, 32, 1, 32, 0.0, 0.0, 0.1, true, false, false).toBuilder();
  }
}
