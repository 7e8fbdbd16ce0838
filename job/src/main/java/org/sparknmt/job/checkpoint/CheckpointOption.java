package org.sparknmt.job.checkpoint;

import picocli.CommandLine.Option;

/** {@code --checkpoint}: which checkpoint of a run a command loads, in the forms {@link CheckpointStore} resolves. */
public final class CheckpointOption {
  @Option(names = "--checkpoint", defaultValue = "latest", paramLabel = "C",
      description = "latest, best, step-N (or N), a folder name under RUN/checkpoints (avg-last-K-step-N), or a full path. Default: ${DEFAULT-VALUE}.")
  String checkpoint;

  public String name() {
    return checkpoint;
  }
}
