package org.sparknmt.bench;

import org.sparknmt.model.TransformerConfig;

/** The model sizes the training benchmarks take by name. */
enum Preset {
  tiny, small, base, big;

  TransformerConfig config() {
    return switch (this) {
      case tiny -> TransformerConfig.tiny();
      case small -> TransformerConfig.small();
      case base -> TransformerConfig.base();
      case big -> TransformerConfig.big();
    };
  }
}
