package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The choice of S, and where each worker's part of a slice goes. */
class SliceReducersTest {
  @Test
  void sIsTheLargestOfWorkersExecutorsAndTheStateOverTheSliceLimit() {
    assertEquals(8, SliceReducers.of(1_000_000, 12_000_000, 8, 2).slices(), "W");
    assertEquals(16, SliceReducers.of(1_000_000, 12_000_000, 2, 16).slices(), "executors");
    // Transformer-big with Adam's moments: 184,549,376 parameters, 2.2 GB, over 64 MiB slices
    assertEquals(33, SliceReducers.of(184_549_376, 12L * 184_549_376, 2, 2).slices(), "size");
    assertEquals(3, SliceReducers.of(3, 36, 8, 2).slices(), "at most one slice per parameter");
  }

  @Test
  void sliceJOfEveryWorkerGoesToReducerJInWorkerOrder() {
    SliceReducers reducers = new SliceReducers(4, 3);
    for (int slice = 0; slice < 4; slice++) {
      for (int worker = 0; worker < 3; worker++) {
        assertEquals(slice, reducers.getPartition(reducers.key(slice, worker)));
        if (worker > 0) {
          assertEquals(reducers.key(slice, worker - 1) + 1, reducers.key(slice, worker), "sorted by worker");
        }
      }
    }
    assertEquals(0, reducers.start(10, 0));
    assertEquals(5, reducers.start(10, 2));
    assertEquals(10, reducers.start(10, 4), "the slices cover the vector");
  }
}
