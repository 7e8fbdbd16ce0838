package org.sparknmt.bench;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * The machine's float GEMM peak as ND4J reaches it: C = A·B with square N×N matrices into a preallocated
 * C, best (and median) of REPEATS after two warm-up products. Threads: ND4J's, set by OMP_NUM_THREADS
 * when the JVM starts.
 */
@Command(name = "GemmPeak", mixinStandardHelpOptions = true,
    description = "Print ND4J's float GEMM rate (best and median GFLOP/s) on N x N matrices; threads from OMP_NUM_THREADS.")
public final class GemmPeak implements Runnable {
  @Parameters(index = "0", arity = "0..1", defaultValue = "2048", paramLabel = "N",
      description = "Matrix size (default ${DEFAULT-VALUE}).")
  int n;

  @Parameters(index = "1", arity = "0..1", defaultValue = "10", paramLabel = "REPEATS",
      description = "Timed products (default ${DEFAULT-VALUE}).")
  int repeats;

  /** GFLOP/s of an N×N·N×N product (2·N³ FLOPs) taking {@code seconds}. */
  public static double gflops(long n, double seconds) {
    return 2.0 * n * n * n / seconds / 1e9;
  }

  @Override
  public void run() {
    INDArray a = Nd4j.rand(DataType.FLOAT, n, n);
    INDArray b = Nd4j.rand(DataType.FLOAT, n, n);
    INDArray c = Nd4j.create(DataType.FLOAT, n, n);
    for (int i = 0; i < 2; i++) {
      Nd4j.gemm(a, b, c, false, false, 1.0, 0.0);
    }
    double[] seconds = new double[repeats];
    for (int i = 0; i < repeats; i++) {
      long start = System.nanoTime();
      Nd4j.gemm(a, b, c, false, false, 1.0, 0.0);
      seconds[i] = (System.nanoTime() - start) / 1e9;
    }
    Arrays.sort(seconds);
    System.out.printf("nd4j sgemm n=%d threads=%d best_GFLOPs=%.1f median_GFLOPs=%.1f%n", n,
        Nd4j.getEnvironment().maxThreads(), gflops(n, seconds[0]), gflops(n, seconds[repeats / 2]));
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new GemmPeak()).execute(args));
  }
}
