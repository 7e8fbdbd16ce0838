package org.sparknmt.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bytedeco.javacpp.Pointer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.sparknmt.common.shard.Batch;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.MultiDataSets;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.infer.PassWorkspace;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.train.MicroBatches;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * A training step computed in {@code train.micro_batches} parts ({@link MicroBatches}) against the whole
 * batch: the step's workspace (what one forward and backward pass holds), the time a step takes and the
 * peak native memory, on random batches of BATCH pairs of SEQ tokens a side (EOS and BOS included). Run
 * one JVM per count: a thread's step workspace keeps the size of its largest pass.
 */
@Command(name = "MicroBatchBench", mixinStandardHelpOptions = true,
    description = "Print the step workspace, ms/step and peak native memory of one model size with a batch's step in N parts.")
public final class MicroBatchBench implements Runnable {
  @Mixin
  ModelSize size;

  @Parameters(index = "2", paramLabel = "BATCH", description = "Sentence pairs per batch.")
  int batch;

  @Parameters(index = "3", paramLabel = "SEQ", description = "Source and target length in tokens, EOS or BOS included.")
  int seq;

  @Parameters(index = "4", paramLabel = "STEPS", description = "Timed training steps (after two warm-up steps).")
  int steps;

  @Parameters(index = "5", paramLabel = "N", description = "Micro-batches a step is computed in; 1 = ComputationGraph.fit.")
  int parts;

  public static void main(String[] args) {
    System.exit(new CommandLine(new MicroBatchBench()).execute(args));
  }

  @Override
  public void run() {
    TransformerConfig config = size.config();
    ComputationGraph graph = TransformerFactory.create(config, size.vocab, TransformerFactory.paperAdam(1e-4), 0,
        DataType.FLOAT);
    Random random = new Random(0);
    List<EncodedPair> pairs = new ArrayList<>();
    for (int i = 0; i < batch; i++) {
      pairs.add(new EncodedPair(i, ids(random, size.vocab, seq - 1), ids(random, size.vocab, seq - 1)));
    }
    Batch data = new Batch(pairs);
    long peakRss = 0;
    long start = 0;
    try (MicroBatches inParts = parts > 1 ? new MicroBatches(graph) : null) {
      for (int i = 0; i < steps + 2; i++) {
        if (i == 2) {
          start = System.nanoTime();
        }
        if (inParts == null) {
          graph.fit(MultiDataSets.of(data));
        } else {
          inParts.fit(MicroBatches.parts(data, parts), i);
        }
        peakRss = Math.max(peakRss, Pointer.physicalBytes());
      }
    }
    double msPerStep = (System.nanoTime() - start) / 1e6 / steps;
    System.out.printf("config=%s batch=%dx%d micro_batches=%d ms/step=%.1f tgt_tokens/s=%.0f step_workspace=%d MiB"
        + " peak_native(RSS)=%d MiB%n", size.preset, batch, seq, parts, msPerStep, batch * seq / (msPerStep / 1000),
        PassWorkspace.size(PassWorkspace.TRAINING_STEP) >> 20, peakRss >> 20);
  }

  private static int[] ids(Random random, int vocab, int length) {
    int[] ids = new int[length];
    for (int j = 0; j < length; j++) {
      ids[j] = 4 + random.nextInt(vocab - 4);
    }
    return ids;
  }
}
