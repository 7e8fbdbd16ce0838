package org.sparknmt.model.bench;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The machine's float GEMM peak as ND4J reaches it: C = A·B with square N×N matrices into a preallocated
 * C, best (and median) of REPEATS after two warm-up products. Threads: ND4J's, set by OMP_NUM_THREADS
 * when the JVM starts.
 *
 * <p>usage: GemmPeak [N [REPEATS]] (default 2048 10)
 */
public final class GemmPeak {
  private GemmPeak() {}

  /** GFLOP/s of an N×N·N×N product (2·N³ FLOPs) taking {@code seconds}. */
  public static double gflops(long n, double seconds) {
    return 2.0 * n * n * n / seconds / 1e9;
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 2048;
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 10;
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
}
