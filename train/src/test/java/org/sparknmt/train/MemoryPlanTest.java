package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;

/**
 * The recommendation of {@code sparknmt memory} holds: a local-cluster executor given exactly the plan's
 * heap ({@code spark.executor.memory}) and, as JavaCPP's process cap, heap + {@code memoryOverhead}
 * trains a few steps, and its peak resident memory stays within that limit.
 */
@Tag("slow")
class MemoryPlanTest {
  private static final TransformerConfig MODEL = TinyRun.MODEL.toBuilder().maxLength(128).build();
  private static final int VOCAB = 400;
  /** TinyRun.prepare's data.max_tokens. */
  private static final int MAX_TOKENS = 384;
  private static final MemoryPlan PLAN = MemoryPlan.of(MODEL, VOCAB, MAX_TOKENS);

  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster(
      "local-cluster[1,1," + PLAN.executorHeapMib() + "]",
      Map.of("spark.executor.memoryOverhead", PLAN.executorOverheadMib() + "m",
          "spark.executor.extraJavaOptions", "-Dorg.bytedeco.javacpp.maxbytes=" + PLAN.executorOverheadMib() + "m"
              + " -Dorg.bytedeco.javacpp.maxphysicalbytes=" + PLAN.executorProcessMib() + "m",
          "spark.executorEnv.MALLOC_MMAP_THRESHOLD_", "131072"));

  @Test
  void anExecutorTrainsWithinTheRecommendedLimits() throws IOException {
    String run = TinyRun.prepare(SPARK.sc(), HDFS, "memory", 240, 40, VOCAB);
    TrainConfig train = JobConfig.load(null, List.of("train.workers=1", "train.max_steps=6", "train.averaging_frequency=2",
        "train.valid_bleu_sentences=5")).bind("train", TrainConfig.class);

    TrainJob.Result result = new TrainJob(SPARK.sc(), run, MODEL, train, "test").run(TrainJob.Start.RESUME_OR_FRESH);

    assertEquals(6, result.step(), result.stopReason());
    List<long[]> executor = SPARK.sc().parallelize(List.of(0), 1).map(x -> executorMemory()).collect();
    long heapMib = executor.get(0)[0];
    long capMib = executor.get(0)[1];
    long peakMib = executor.get(0)[2];
    assertTrue(heapMib <= PLAN.executorHeapMib() && heapMib > PLAN.executorHeapMib() / 2,
        "executor heap " + heapMib + " MiB, planned " + PLAN.executorHeapMib());
    assertEquals(PLAN.executorProcessMib(), capMib, "the executor's JavaCPP process cap");
    assertTrue(peakMib <= PLAN.executorProcessMib(),
        "the executor peaked at " + peakMib + " MiB resident, over the planned " + PLAN.executorProcessMib() + " MiB");
  }

  /** On the executor: its max heap, JavaCPP's process cap and its peak resident memory (VmHWM), in MiB. */
  private static long[] executorMemory() throws IOException {
    long peakKib = Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(line -> line.startsWith("VmHWM:"))
        .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
        .findFirst().orElseThrow();
    return new long[] {Runtime.getRuntime().maxMemory() >> 20,
        org.bytedeco.javacpp.Pointer.maxPhysicalBytes() >> 20, peakKib >> 10};
  }
}
