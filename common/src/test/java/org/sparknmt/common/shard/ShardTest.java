package org.sparknmt.common.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.sparknmt.common.vocab.SpecialTokens;

class ShardTest {
  private static EncodedPair pair(long id, int srcLen, int tgtLen) {
    int[] src = new int[srcLen];
    int[] tgt = new int[tgtLen];
    Arrays.fill(src, 300 + (int) id);
    Arrays.fill(tgt, 900 + (int) id);
    return new EncodedPair(id, src, tgt);
  }

  @Test
  void packsByTokenBudgetWithPadding() {
    List<EncodedPair> sorted = List.of(pair(1, 2, 3), pair(2, 3, 3), pair(3, 3, 4), pair(4, 9, 2), pair(5, 20, 1));
    List<Batch> batches = new ArrayList<>();
    new BatchPacker(12, 0).pack(sorted.iterator()).forEachRemaining(batches::add);
    // lengths (max side + 1): 4, 4, 5, 10, 21 -> [4,4] cost 8, +5 -> 15 > 12; [5] ; [10]; [21] alone over budget
    assertEquals(List.of(2, 1, 1, 1), batches.stream().map(b -> b.pairs().size()).toList());
    assertEquals(5, batches.stream().mapToInt(b -> b.pairs().size()).sum());
    List<Batch> capped = new ArrayList<>();
    new BatchPacker(1000, 2).pack(sorted.iterator()).forEachRemaining(capped::add);
    assertEquals(List.of(2, 2, 1), capped.stream().map(b -> b.pairs().size()).toList());
  }

  private static byte[] write(List<Batch> batches) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ShardWriter writer = new ShardWriter(bytes)) {
      for (Batch b : batches) {
        writer.write(b);
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void roundTripsAndDetectsTruncationAndCorruption() throws IOException {
    List<Batch> batches = List.of(new Batch(List.of(pair(1, 2, 3), pair(2, 0, 1))),
        new Batch(List.of(pair(1L << 40 | 7, 1, 200))));
    byte[] shard = write(batches);
    List<Batch> read = ShardReader.readAll(new ByteArrayInputStream(shard), "s");
    assertEquals(batches.size(), read.size());
    for (int i = 0; i < batches.size(); i++) {
      for (int j = 0; j < batches.get(i).pairs().size(); j++) {
        EncodedPair want = batches.get(i).pairs().get(j);
        EncodedPair got = read.get(i).pairs().get(j);
        assertEquals(want.lineId(), got.lineId());
        assertArrayEquals(want.source(), got.source());
        assertArrayEquals(want.target(), got.target());
      }
    }
    assertTrue(ShardReader.readAll(new ByteArrayInputStream(write(List.of())), "empty").isEmpty());

    byte[] truncated = Arrays.copyOf(shard, shard.length - 3);
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> ShardReader.readAll(new ByteArrayInputStream(truncated), "part-1.shard"));
    assertTrue(e.getMessage().contains("part-1.shard is corrupt: truncated"), e.getMessage());
    byte[] flipped = shard.clone();
    flipped[12] ^= 1;
    assertThrows(UncheckedIOException.class, () -> ShardReader.readAll(new ByteArrayInputStream(flipped), "f"));
  }

  @Test
  void skipsBatchesWithoutLosingTheTrailersCheck() throws IOException {
    List<Batch> batches = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batches.add(new Batch(List.of(pair(2 * i, 1 + i, 2), pair(2 * i + 1, 3, 1 + 2 * i))));
    }
    byte[] shard = write(batches);
    try (ShardReader reader = new ShardReader(new ByteArrayInputStream(shard), "s")) {
      reader.skip(0);
      reader.skip(3);
      assertEquals(6, reader.next().pairs().get(0).lineId());
      reader.skip(1);
      assertFalse(reader.hasNext());
    }
    try (ShardReader reader = new ShardReader(new ByteArrayInputStream(shard), "s")) {
      assertThrows(java.util.NoSuchElementException.class, () -> reader.skip(6));
    }
    byte[] flipped = shard.clone();
    flipped[12] ^= 1;
    try (ShardReader reader = new ShardReader(new ByteArrayInputStream(flipped), "f")) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
        reader.skip(4);
        reader.next();
      });
      assertTrue(e.getMessage().contains("f is corrupt: CRC-32 mismatch"), e.getMessage());
    }
  }

  @Test
  void aCorruptLengthIsAClearErrorBeforeAnythingIsAllocated() throws IOException {
    byte[] shard = write(List.of(new Batch(List.of(pair(1, 2, 3)))));
    // magic, batch tag, 1 pair, line id 1, then the source length 2: make it 2^31 - 1 (a 5-byte varint)
    int at = ShardFormat.MAGIC.length + 3;
    assertEquals(2, shard[at]);
    byte[] corrupt = new byte[shard.length + 4];
    System.arraycopy(shard, 0, corrupt, 0, at);
    System.arraycopy(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, 0, corrupt, at, 5);
    System.arraycopy(shard, at + 1, corrupt, at + 5, shard.length - at - 1);
    UncheckedIOException e = assertThrows(UncheckedIOException.class,
        () -> ShardReader.readAll(new ByteArrayInputStream(corrupt), "part-3.shard"));
    assertEquals("shard part-3.shard is corrupt: batch 1 declares 2147483647 subwords in a sentence, more than the "
        + "65536 any shard holds (a corrupt length)", e.getCause().getMessage());
  }

  @Test
  void convertsToMultiDataSetWithMasks() {
    Batch batch = new Batch(List.of(new EncodedPair(1, new int[] {10, 11, 12}, new int[] {20}),
        new EncodedPair(2, new int[] {13}, new int[] {21, 22})));
    MultiDataSet mds = MultiDataSets.of(batch);
    INDArray src = mds.getFeatures(0);
    INDArray tgtIn = mds.getFeatures(1);
    INDArray tgtOut = mds.getLabels(0);
    assertArrayEquals(new long[] {2, 4}, src.shape());
    assertArrayEquals(new long[] {2, 3}, tgtIn.shape());
    assertArrayEquals(new float[] {10, 11, 12, SpecialTokens.EOS, 13, SpecialTokens.EOS, 0, 0}, src.data().asFloat());
    assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 0, 0}, mds.getFeaturesMaskArray(0).data().asFloat());
    assertArrayEquals(new float[] {SpecialTokens.BOS, 20, 0, SpecialTokens.BOS, 21, 22}, tgtIn.data().asFloat());
    assertArrayEquals(new float[] {20, SpecialTokens.EOS, 0, 21, 22, SpecialTokens.EOS}, tgtOut.data().asFloat());
    assertArrayEquals(new float[] {1, 1, 0, 1, 1, 1}, mds.getFeaturesMaskArray(1).data().asFloat());
    assertEquals(mds.getFeaturesMaskArray(1), mds.getLabelsMaskArray(0));
    assertEquals(2 * 7, batch.paddedTokens());
    assertEquals(4 + 2 + 2 + 3, batch.realTokens());
  }
}
