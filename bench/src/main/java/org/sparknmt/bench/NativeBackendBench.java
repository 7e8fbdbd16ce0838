package org.sparknmt.bench;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.lossfunctions.LossFunctions;
import org.sparknmt.cli.NativeLibrary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Compares ND4J native builds (selected with {@code -Dorg.bytedeco.javacpp.platform.extension}):
 * float GEMM throughput and the time of one training step of a dense network the width of the
 * small Transformer's FFN. Prints one line per measure; {@code scripts/bench-native} runs it per build.
 */
@Command(name = "NativeBackendBench", mixinStandardHelpOptions = true,
    description = "Print the GEMM rate and a dense training step's time of the ND4J native build this JVM loaded.")
public final class NativeBackendBench implements Runnable {
  @Parameters(index = "0", arity = "0..1", defaultValue = "20", paramLabel = "REPEATS",
      description = "Timed training steps; GEMM is timed five times as often (default ${DEFAULT-VALUE}).")
  int repeats;

  public static void main(String[] args) {
    System.exit(new CommandLine(new NativeBackendBench()).execute(args));
  }

  @Override
  public void run() {
    System.out.println("library: " + NativeLibrary.loadedFrom());
    INDArray a = Nd4j.rand(DataType.FLOAT, 1536, 256);
    INDArray b = Nd4j.rand(DataType.FLOAT, 256, 1024);
    double flops = 2.0 * 1536 * 256 * 1024;
    for (int i = 0; i < 5; i++) {
      a.mmul(b);
    }
    long start = System.nanoTime();
    for (int i = 0; i < repeats * 5; i++) {
      a.mmul(b);
    }
    double gemmSeconds = (System.nanoTime() - start) / 1e9 / (repeats * 5);
    System.out.printf("gemm 1536x256x1024: %.1f GFLOP/s%n", flops / gemmSeconds / 1e9);

    MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder()
        .seed(1).updater(new Adam(1e-3)).list()
        .layer(new DenseLayer.Builder().nIn(256).nOut(1024).activation(Activation.RELU).build())
        .layer(new DenseLayer.Builder().nIn(1024).nOut(256).activation(Activation.IDENTITY).build())
        .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(256).nOut(2000)
            .activation(Activation.SOFTMAX).build())
        .build());
    net.init();
    INDArray features = Nd4j.rand(DataType.FLOAT, 1536, 256);
    INDArray labels = Nd4j.zeros(DataType.FLOAT, 1536, 2000);
    for (int row = 0; row < 1536; row++) {
      labels.putScalar(row, row % 2000, 1f);
    }
    for (int i = 0; i < 3; i++) {
      net.fit(features, labels);
    }
    start = System.nanoTime();
    for (int i = 0; i < repeats; i++) {
      net.fit(features, labels);
    }
    System.out.printf("dense fit step (1536 rows, 256-1024-256-2000): %.1f ms%n",
        (System.nanoTime() - start) / 1e6 / repeats);
  }
}
