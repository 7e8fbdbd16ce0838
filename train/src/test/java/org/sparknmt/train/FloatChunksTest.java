package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * A state larger than one Java array travels as several: a range cut into chunks of at most the given
 * floats comes back whole, element for element, and lands in the same range of another vector.
 */
class FloatChunksTest {
  @Test
  void aRangeCutIntoChunksComesBackWholeAndInPlace() {
    INDArray source = Nd4j.linspace(1, 40, 40, DataType.FLOAT).reshape(1, 40);
    FloatChunks chunks = FloatChunks.of(source, 3, 20, 4);

    assertEquals(5, chunks.chunkCount(), "17 floats in chunks of 4");
    assertEquals(17, chunks.length());
    assertArrayEquals(Arrays.copyOfRange(source.data().asFloat(), 3, 20), chunks.row().data().asFloat());

    INDArray target = Nd4j.zeros(DataType.FLOAT, 1, 40);
    chunks.copyInto(target, 3);
    float[] expected = new float[40];
    System.arraycopy(source.data().asFloat(), 3, expected, 3, 17);
    assertArrayEquals(expected, target.data().asFloat());
  }

  @Test
  void aWholeVectorFitsOneChunkUnderTheLimit() {
    INDArray source = Nd4j.rand(DataType.FLOAT, 1, 1000);
    FloatChunks whole = FloatChunks.of(source);
    assertEquals(1, whole.chunkCount());
    assertArrayEquals(source.data().asFloat(), whole.row().data().asFloat());
  }

  @Test
  void fortranOrderIsReadInCOrderAndAViewIsReadAndWrittenInPlace() {
    INDArray matrix = Nd4j.linspace(1, 24, 24, DataType.FLOAT).reshape('f', 4, 6);
    float[] inC = matrix.dup('c').data().asFloat();
    assertArrayEquals(Arrays.copyOfRange(inC, 5, 19), FloatChunks.of(matrix, 5, 19, 4).row().data().asFloat());

    INDArray wide = Nd4j.linspace(1, 30, 30, DataType.FLOAT).reshape(1, 30);
    INDArray view = wide.get(NDArrayIndex.point(0), NDArrayIndex.interval(10, 30));
    float[] before = wide.data().asFloat();
    FloatChunks fromView = FloatChunks.of(view, 2, 9, 3);
    assertArrayEquals(Arrays.copyOfRange(before, 12, 19), fromView.row().data().asFloat());

    fromView.copyInto(view, 0);
    float[] expected = before.clone();
    System.arraycopy(before, 12, expected, 10, 7);
    assertArrayEquals(expected, wide.data().asFloat(), "the view's first 7 elements, and nothing around them");
  }

  /**
   * An array handed straight in and referenced nowhere else (AverageSlice's averaged slice) must outlive
   * the copy of its raw buffer while collections run: a collected array's memory is freed by ND4J's
   * deallocator, and the copy then read freed memory (a SIGSEGV in an 8-worker run, or wrong values).
   * The calls are compiled first, as in a long run, where the array's last use is the pointer's creation.
   */
  @Test
  void aTemporaryArrayOutlivesTheCopyOfItsBuffer() throws InterruptedException {
    for (int i = 0; i < 30_000; i++) {
      FloatChunks.of(Nd4j.valueArrayOf(new long[] {1, 16}, i, DataType.FLOAT));
    }
    AtomicBoolean done = new AtomicBoolean();
    Thread collector = new Thread(() -> {
      while (!done.get()) {
        System.gc();
      }
    });
    collector.start();
    try {
      // Each collection scans the whole test JVM's heap: in a fork that ran the module's other tests first
      // a copy under collections took seconds, so the copies stop at a deadline as well as a count.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      for (int i = 0; i < 200 && (i < 5 || System.nanoTime() < deadline); i++) {
        FloatChunks chunks = FloatChunks.of(Nd4j.valueArrayOf(new long[] {1, 4 << 20}, i, DataType.FLOAT));
        float[] copied = chunks.row().data().asFloat();
        int wrong = 0;
        for (float value : copied) {
          wrong += value == i ? 0 : 1;
        }
        assertTrue(wrong == 0, wrong + " of " + copied.length + " floats wrong in copy " + i);
      }
    } finally {
      done.set(true);
      collector.join();
    }
  }
}
