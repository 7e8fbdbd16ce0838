package org.sparknmt.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Random;
import org.bytedeco.javacpp.Pointer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.sparknmt.model.TransformerFactory;
import org.sparknmt.model.infer.PassWorkspace;
import org.sparknmt.model.nn.LabelSmoothedCrossEntropy;
import org.sparknmt.model.nn.Params;
import org.sparknmt.model.nn.Transformer;
import org.sparknmt.model.nn.TransformerBatch;
import org.sparknmt.model.nn.TransformerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Training throughput of the Transformer graph on random unpadded batches, the shape the PyTorch
 * peer ({@code scripts/torch-train-bench.py}) uses: target tokens/s of {@code ComputationGraph.fit},
 * where one step's time goes (forward + loss, backward, the rest: DL4J's updater and bookkeeping),
 * and peak memory (JVM heap and native RSS).
 */
@Command(name = "TrainBench", mixinStandardHelpOptions = true,
    description = "Print training tokens/s, the split of a step's time and peak memory of one model size on random batches.")
public final class TrainBench implements Runnable {
  @Mixin
  ModelSize size;

  @Parameters(index = "2", paramLabel = "BATCH", description = "Sentence pairs per batch.")
  int batch;

  @Parameters(index = "3", paramLabel = "SEQ", description = "Source and target length in tokens.")
  int seq;

  @Parameters(index = "4", paramLabel = "STEPS", description = "Timed training steps (after two warm-up steps).")
  int steps;

  public static void main(String[] args) {
    System.exit(new CommandLine(new TrainBench()).execute(args));
  }

  @Override
  public void run() {
    TransformerConfig config = size.config();
    int vocab = size.vocab;
    ComputationGraph graph = TransformerFactory.create(config, vocab, TransformerFactory.paperAdam(1e-4), 0,
        DataType.FLOAT);
    Random random = new Random(0);
    INDArray source = randomIds(random, vocab, batch, seq);
    INDArray target = randomIds(random, vocab, batch, seq + 1);
    INDArray targetIn = target.get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
        org.nd4j.linalg.indexing.NDArrayIndex.interval(0, seq)).dup();
    INDArray labels = target.get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
        org.nd4j.linalg.indexing.NDArrayIndex.interval(1, seq + 1)).dup();
    MultiDataSet data = new MultiDataSet(new INDArray[] {source, targetIn}, new INDArray[] {labels});
    System.out.printf("config=%s %s vocab=%d batch=%dx%d params=%d threads(OMP)=%s%n", size.preset, config, vocab,
        batch, seq, graph.numParams(), System.getenv().getOrDefault("OMP_NUM_THREADS", "default"));
    for (int i = 0; i < 2; i++) {
      graph.fit(data);
    }
    long peakRss = Pointer.physicalBytes();
    long start = System.nanoTime();
    for (int i = 0; i < steps; i++) {
      graph.fit(data);
      peakRss = Math.max(peakRss, Pointer.physicalBytes());
    }
    double msPerStep = (System.nanoTime() - start) / 1e6 / steps;
    Phases phases = phases(config, vocab, graph, batch, seq, source, targetIn, labels, steps);
    System.out.printf("ms/step=%.1f tgt_tokens/s=%.0f%n", msPerStep, batch * seq / (msPerStep / 1000));
    System.out.printf("phases ms: forward+loss=%.1f backward=%.1f updater+graph=%.1f%n", phases.forward,
        phases.backward, msPerStep - phases.forward - phases.backward);
    System.out.printf("peak memory: heap=%d MiB native(RSS)=%d MiB step workspace=%d MiB%n", peakHeap() >> 20,
        peakRss >> 20, PassWorkspace.size(PassWorkspace.TRAINING_STEP) >> 20);
  }

  private record Phases(double forward, double backward) {}

  /** Times the model's own forward and backward passes on the graph's parameters, outside DL4J. */
  private static Phases phases(TransformerConfig config, int vocab, ComputationGraph graph, int batch, int seq,
      INDArray source, INDArray targetIn, INDArray labels, int steps) {
    Params params = new Params();
    Transformer model = new Transformer(config, vocab, params);
    params.bindValues(params.split(graph.params().dup()));
    params.bindGradients(params.split(Nd4j.zeros(DataType.FLOAT, 1, params.size())));
    TransformerBatch b = new TransformerBatch(batch, ids(source), null, ids(targetIn), null, ids(labels));
    double forward = 0;
    double backward = 0;
    for (int i = 0; i < steps; i++) {
      long t0;
      long t1;
      long t2;
      // the training step's workspace, as in the layer: outside it the passes wait for GCs to free their arrays
      try (MemoryWorkspace ws = PassWorkspace.open(PassWorkspace.TRAINING_STEP)) {
        t0 = System.nanoTime();
        LabelSmoothedCrossEntropy.Result r = model.loss(b, DataType.FLOAT, true, true);
        t1 = System.nanoTime();
        model.backward(r.dLogits());
        t2 = System.nanoTime();
      }
      forward += (t1 - t0) / 1e6;
      backward += (t2 - t1) / 1e6;
    }
    return new Phases(forward / steps, backward / steps);
  }

  private static int[] ids(INDArray m) {
    return m.castTo(DataType.INT32).dup('c').reshape(m.length()).toIntVector();
  }

  private static INDArray randomIds(Random random, int vocab, int rows, int cols) {
    float[][] ids = new float[rows][cols];
    for (float[] row : ids) {
      for (int j = 0; j < cols; j++) {
        row[j] = 4 + random.nextInt(vocab - 4);
      }
    }
    return Nd4j.create(ids);
  }

  private static long peakHeap() {
    long total = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        total += pool.getPeakUsage().getUsed();
      }
    }
    return total;
  }
}
