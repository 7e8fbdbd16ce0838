package org.sparknmt.bench;

import java.nio.file.Path;
import java.util.List;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;

/** The model sizes the training benchmarks take by name: the model section of {@code conf/<name>.conf}. */
enum Preset {
  tiny, small, base, big;

  /** The model of {@code confDir/<name>.conf} over the built-in defaults, as {@code --conf} would give it. */
  TransformerConfig config(Path confDir) {
    return JobConfig.load(confDir.resolve(name() + ".conf"), List.of()).bind("model", TransformerConfig.class);
  }
}
