package org.sparknmt.bench;

import org.sparknmt.model.TransformerConfig;
import picocli.CommandLine.Parameters;

/** The first two arguments of the training benchmarks: a model size by name and the vocabulary size. */
final class ModelSize {
  @Parameters(index = "0", paramLabel = "CONFIG", description = "Model size: ${COMPLETION-CANDIDATES}.")
  Preset preset;

  @Parameters(index = "1", paramLabel = "VOCAB", description = "Vocabulary size.")
  int vocab;

  TransformerConfig config() {
    return preset.config();
  }
}
