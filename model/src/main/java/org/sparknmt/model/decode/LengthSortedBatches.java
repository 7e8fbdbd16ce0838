package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/**
 * Batched search over many sources: sources are sorted by length so that a batch pads little,
 * searched {@code batchSize} at a time, longest first, and the translations returned in the sources' order.
 */
public final class LengthSortedBatches {
  private LengthSortedBatches() {}

  /**
   * Translates {@code sources} (ids ending with EOS) with {@code translator}.
   *
   * @return one translation per source, in the order of {@code sources}
   */
  public static Translation[] translate(Translator translator, int[][] sources, DecodingOptions options, int batchSize) {
    return inBatches(sources, batchSize, (batch, rows) -> translator.beam(batch, options)).toArray(Translation[]::new);
  }

  /**
   * What {@code search} gives for each source, searched in batches as {@link #translate} searches them.
   *
   * @param search the results of a batch of sources, given with their indices in {@code sources}
   * @return one result per source, in the order of {@code sources}
   */
  public static <R> List<R> inBatches(int[][] sources, int batchSize, BiFunction<int[][], int[], List<R>> search) {
    Integer[] order = IntStream.range(0, sources.length).boxed().toArray(Integer[]::new);
    // stable: equal lengths keep their input order, so results do not depend on the sort's whims. Longest
    // first: the search's workspace is sized by its first batch, and a larger batch after it would
    // reallocate it (with shortest first nearly every batch did: docs/notes/2026-12-03-benchmark-history.md,
    // "Translation: where a search's time went")
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> sources[i].length).reversed());
    List<R> out = new ArrayList<>(Collections.nCopies(sources.length, null));
    for (int start = 0; start < order.length; start += batchSize) {
      int end = Math.min(order.length, start + batchSize);
      int[][] batch = new int[end - start][];
      int[] rows = new int[end - start];
      for (int k = start; k < end; k++) {
        batch[k - start] = sources[order[k]];
        rows[k - start] = order[k];
      }
      List<R> results = search.apply(batch, rows);
      for (int k = start; k < end; k++) {
        out.set(order[k], results.get(k - start));
      }
    }
    return out;
  }
}
