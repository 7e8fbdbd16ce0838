package org.sparknmt.cli;

import java.util.List;
import org.sparknmt.base.UsageException;
import picocli.CommandLine.Option;

/**
 * {@code --checkpoint}: which checkpoint of a run a command loads, in the forms {@link CheckpointStore} resolves;
 * given several times, an ensemble (translate only).
 */
public final class CheckpointOption {
  @Option(names = "--checkpoint", defaultValue = "latest", paramLabel = "C",
      description = "latest, best, step-N (or N), a folder name under RUN/checkpoints (avg-last-K-step-N), or a full path."
          + " Default: ${DEFAULT-VALUE}. translate takes it several times: an ensemble of those checkpoints.")
  List<String> checkpoints;

  /** The one checkpoint named; several are a usage error. */
  public String name() {
    if (checkpoints.size() > 1) {
      throw new UsageException("--checkpoint is given " + checkpoints.size() + " times (" + String.join(", ", checkpoints)
          + "): only a text input's translate takes an ensemble");
    }
    return checkpoints.get(0);
  }

  /** The checkpoints named, in their order: one, or an ensemble's. */
  public List<String> names() {
    return List.copyOf(checkpoints);
  }
}
