package org.sparknmt.bench;

import java.nio.file.Path;
import org.sparknmt.model.nn.TransformerConfig;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The first two arguments of the training benchmarks, a model size by name and the vocabulary size,
 * and the folder of the sizes' files.
 */
final class ModelSize {
  @Parameters(index = "0", paramLabel = "CONFIG", description = "Model size: ${COMPLETION-CANDIDATES} (conf/NAME.conf).")
  Preset preset;

  @Parameters(index = "1", paramLabel = "VOCAB", description = "Vocabulary size.")
  int vocab;

  @Option(names = "--conf-dir", paramLabel = "DIR", defaultValue = "${sys:sparknmt.conf.dir:-conf}",
      description = "The folder of the model sizes' files (NAME.conf). Default: ${DEFAULT-VALUE}.")
  Path confDir;

  TransformerConfig config() {
    return preset.config(confDir);
  }
}
