package org.sparknmt.model.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The beam's bookkeeping on hand-made distributions over a 4-token vocabulary (0 pad, 1 BOS, 2 EOS, 3 word). */
class BeamTest {
  private static final int BOS = 1;
  private static final int EOS = 2;

  private static float[] row(double pad, double bos, double eos, double word) {
    return new float[] {(float) Math.log(pad), (float) Math.log(bos), (float) Math.log(eos), (float) Math.log(word)};
  }

  /** Advances a beam by full rows of log-probabilities. */
  private static void advance(Beam beam, float[][] logProbabilities) {
    beam.advance(FullRecomputeSearch.best(logProbabilities, beam.candidatesPerHypothesis()));
  }

  private static float[][] rows(float[] row, int n) {
    float[][] r = new float[n][];
    java.util.Arrays.fill(r, row);
    return r;
  }

  @Test
  void gnmtAndPowerPenalties() {
    assertEquals(-2.0, new LengthPenalty.Gnmt(0).normalize(-2.0, 7), 1e-12);
    assertEquals(-2.0 / Math.pow(12.0 / 6.0, 0.6), new LengthPenalty.Gnmt(0.6).normalize(-2.0, 7), 1e-12);
    assertEquals(-2.0 / 4.0, new LengthPenalty.Power(1.0).normalize(-2.0, 4), 1e-12);
  }

  @Test
  void topKIsBestFirst() {
    assertArrayEquals(new int[] {3, 0, 2}, TopK.indices(floats(new float[] {0.5f, -1f, 0.1f, 2f}), 0, 4, 3));
    assertArrayEquals(new int[] {1, 0}, TopK.indices(floats(new float[] {9f, 0.5f, 2f, 0.1f}), 1, 3, 2), "relative to from");
  }

  @Test
  void topKOfLongRowsIsASortsFirstK() {
    Random random = new Random(7);
    for (int length : new int[] {8000, 8003, 37}) {
      float[] values = new float[3 + length];
      for (int j = 0; j < values.length; j++) {
        // rounded, so that rows hold ties: the lower index comes first
        values[j] = Math.round(random.nextGaussian() * 40) / 10f;
      }
      int[] expected = IntStream.range(0, length).boxed()
          .sorted(Comparator.comparingDouble((Integer j) -> values[3 + j]).reversed()).limit(8).mapToInt(Integer::intValue).toArray();
      assertArrayEquals(expected, TopK.indices(floats(values), 3, length, 8), "row of " + length);
    }
  }

  /** Values as a native-order buffer of floats, as ND4J's logits are read. */
  static ByteBuffer floats(float[] values) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
    buffer.asFloatBuffer().put(values);
    return buffer;
  }

  @Test
  void greedyBeamStopsAtEos() {
    Beam beam = new Beam(1, BOS, EOS, 10, new LengthPenalty.Power(0), new int[0]);
    advance(beam, new float[][] {row(0.01, 0.01, 0.18, 0.8)});
    assertFalse(beam.done());
    advance(beam, new float[][] {row(0.01, 0.01, 0.9, 0.08)});
    assertTrue(beam.done());
    Translation t = beam.best();
    assertArrayEquals(new int[] {3}, t.tokens(), "output without BOS and EOS");
    assertTrue(t.finished());
    assertEquals(Math.log(0.8f) + Math.log(0.9f), t.score(), 1e-5);
  }

  @Test
  void maximumLengthCutsAnUnfinishedHypothesis() {
    Beam beam = new Beam(1, BOS, EOS, 2, new LengthPenalty.Power(0), new int[0]);
    advance(beam, new float[][] {row(0.01, 0.01, 0.08, 0.9)});
    advance(beam, new float[][] {row(0.01, 0.01, 0.08, 0.9)});
    assertTrue(beam.done());
    assertFalse(beam.best().finished());
    assertArrayEquals(new int[] {3, 3}, beam.best().tokens());
  }

  @Test
  void lengthPenaltyCanPreferTheLongerHypothesis() {
    // step 1: EOS now (p = 0.4) or a word (p = 0.6); step 2: after the word EOS with p = 0.6
    // raw scores: short ln 0.4 = −0.92, long ln 0.36 = −1.02; per token (Power 1): −0.92 vs −0.51
    float[] first = row(0.0001, 0.0001, 0.4, 0.5998);
    float[] second = row(0.0001, 0.0001, 0.6, 0.3998);
    Beam raw = new Beam(2, BOS, EOS, 5, new LengthPenalty.Power(0), new int[0]);
    advance(raw, new float[][] {first});
    advance(raw, rows(second, raw.active().size()));
    assertArrayEquals(new int[] {}, raw.best().tokens(), "without normalization the short output wins");
    Beam normalized = new Beam(2, BOS, EOS, 5, new LengthPenalty.Power(1), new int[0]);
    advance(normalized, new float[][] {first});
    advance(normalized, rows(second, normalized.active().size()));
    assertArrayEquals(new int[] {3}, normalized.best().tokens(), "per-token normalization prefers the longer one");
  }
}
