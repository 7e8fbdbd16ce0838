package org.sparknmt.model.infer;

import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.memory.MemoryWorkspaceManager;
import org.nd4j.linalg.api.memory.conf.WorkspaceConfiguration;
import org.nd4j.linalg.api.memory.enums.AllocationPolicy;
import org.nd4j.linalg.api.memory.enums.LearningPolicy;
import org.nd4j.linalg.api.memory.enums.ResetPolicy;
import org.nd4j.linalg.api.memory.enums.SpillPolicy;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The ND4J workspace that holds every temporary array of one pass (a training step, a validation
 * batch, one search), reused by the next pass on the same thread, so native memory is bounded by the
 * largest pass instead of by when the garbage collector finds the arrays' wrappers.
 *
 * <p>It is sized by its first pass and grows when a larger pass spills ({@code REALLOCATE}). The
 * learning policy matters: {@code OVER_TIME} with the default {@code cyclesBeforeInitialization} (0)
 * never allocates the workspace at all, so every array spills and waits for a GC (docs/operations.md,
 * Memory).
 */
public final class PassWorkspace {
  /** A training step's forward and backward pass (the Transformer layer's, and TrainBench's timing of it). */
  public static final String TRAINING_STEP = "SPARKNMT_TRAINING_STEP";

  /** A forward pass without gradients: validation's loss and probabilities. */
  public static final String INFERENCE = "SPARKNMT_INFERENCE";

  /** One search over a batch of sources: the encoding and the decoder's cache. */
  public static final String SEARCH = "SPARKNMT_SEARCH";

  /** One step of a search (an encoder layer or a decoding step): its temporaries, gone when the next step reuses the workspace. */
  public static final String SEARCH_STEP = "SPARKNMT_SEARCH_STEP";

  private static final WorkspaceConfiguration CONFIGURATION = WorkspaceConfiguration.builder()
      .initialSize(0)
      .overallocationLimit(0.2)
      .policyAllocation(AllocationPolicy.OVERALLOCATE)
      .policyLearning(LearningPolicy.FIRST_LOOP)
      .policyReset(ResetPolicy.BLOCK_LEFT)
      .policySpill(SpillPolicy.REALLOCATE)
      .build();

  /**
   * A search's two: sized exactly by their first pass. Batches are searched longest first, so the first
   * batch (and its first encoder layer) needs the most, and the 20 % only held memory: two local[2]
   * searches of the Multi30k recipe at beam 4 and batch 128 held 175 MiB of it. A later, larger search
   * still grows them.
   */
  private static final WorkspaceConfiguration SEARCH_CONFIGURATION = WorkspaceConfiguration.builder()
      .initialSize(0)
      .overallocationLimit(0)
      .policyAllocation(AllocationPolicy.STRICT)
      .policyLearning(CONFIGURATION.getPolicyLearning())
      .policyReset(CONFIGURATION.getPolicyReset())
      .policySpill(CONFIGURATION.getPolicySpill())
      .build();

  private PassWorkspace() {}

  /**
   * Gives this thread's workspace named id {@code bytes} before its first pass, when it has none yet and
   * bytes is positive, so that the first pass fits instead of spilling while the workspace learns its size.
   * A training task starts on a thread without workspaces ({@link #release}), and its first step spilled
   * the whole step into separate allocations; where fresh memory pages are expensive (a virtual
   * machine faulting each 4 KB page in), the spilled arrays cost more than the step's arithmetic.
   */
  public static void reserve(String id, long bytes) {
    MemoryWorkspaceManager manager = Nd4j.getWorkspaceManager();
    if (bytes > 0 && !manager.checkIfWorkspaceExists(id)) {
      manager.getWorkspaceForCurrentThread(sized(bytes), id);
    }
  }

  /**
   * The workspace's configuration, starting at exactly {@code bytes} (which already hold the 20 % of the
   * workspace that learned them), without more over-allocation; a larger pass still grows it, to its size.
   */
  private static WorkspaceConfiguration sized(long bytes) {
    return WorkspaceConfiguration.builder()
        .initialSize(bytes)
        .policyAllocation(AllocationPolicy.STRICT)
        .policyLearning(CONFIGURATION.getPolicyLearning())
        .policyReset(CONFIGURATION.getPolicyReset())
        .policySpill(CONFIGURATION.getPolicySpill())
        .build();
  }

  /** Opens (activates) the workspace named id on this thread; close it when the pass ends. */
  public static MemoryWorkspace open(String id) {
    return Nd4j.getWorkspaceManager().getAndActivateWorkspace(id.equals(SEARCH) || id.equals(SEARCH_STEP) ? SEARCH_CONFIGURATION : CONFIGURATION, id);
  }

  /**
   * Frees this thread's pass workspaces now. A Spark task calls it when it ends: the executor's next
   * task may run on another thread of its pool, and a workspace left on an idle or finished thread keeps
   * its memory until a garbage collection finds the thread's wrapper, which with a small heap may be
   * never, leaving a step's workspace on every thread the rounds have run on.
   */
  public static void release() {
    MemoryWorkspaceManager manager = Nd4j.getWorkspaceManager();
    for (String id : new String[] {TRAINING_STEP, INFERENCE, SEARCH, SEARCH_STEP}) {
      if (manager.checkIfWorkspaceExists(id)) {
        manager.destroyWorkspace(manager.getWorkspaceForCurrentThread(id));
      }
    }
  }

  /** Bytes the workspace named id currently holds on this thread (0 before its first pass). */
  public static long size(String id) {
    return Nd4j.getWorkspaceManager().checkIfWorkspaceExists(id)
        ? Nd4j.getWorkspaceManager().getWorkspaceForCurrentThread(CONFIGURATION, id).getCurrentSize()
        : 0;
  }
}
