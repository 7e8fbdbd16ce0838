package org.sparknmt.model.decode;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.infer.VectorMath;

/**
 * The continuations of a sampling search ({@link Sampling}): one drawn token per hypothesis (a beam of
 * width 1), with the model's log-probability of it. Each sentence draws from its own random stream, so
 * its sample does not depend on the other sentences of its batch.
 */
final class SampledTokens implements Continuations {
  private final Sampling sampling;
  private final Map<Beam, SplittableRandom> randoms = new IdentityHashMap<>();

  SampledTokens(Sampling sampling, List<Beam> beams, long[] seeds) {
    this.sampling = sampling;
    for (int i = 0; i < beams.size(); i++) {
      randoms.put(beams.get(i), new SplittableRandom(seeds[i]));
    }
  }

  @Override
  public NextTokens of(INDArray logits, List<Beam> live, StepTokens scored) {
    int vocab = (int) logits.size(1);
    ByteBuffer z = VectorMath.buffer(logits);
    int[][] tokens = new int[(int) logits.size(0)][];
    float[][] logProbabilities = new float[tokens.length][];
    int i = 0;
    for (Beam beam : live) {
      SplittableRandom random = randoms.get(beam);
      int forced = scored.column(beam.forced());
      for (int h = 0; h < beam.active().size(); h++, i++) {
        int row = i * vocab;
        float max = z.getFloat(4 * (row + TopK.indices(z, row, vocab, 1)[0]));
        // a forced prefix token draws nothing, so the draws after the prefix are those of a search started from it
        int token = forced >= 0 ? forced
            : sampling.topK() > 0 ? drawTopK(z, row, vocab, max, random) : drawTopP(z, row, vocab, max, random);
        tokens[i] = new int[] {token};
        logProbabilities[i] = new float[] {z.getFloat(4 * (row + token)) - NextTokens.logNormalizer(z, row, vocab, max)};
      }
    }
    return new NextTokens(tokens, logProbabilities);
  }

  /** One of the k largest logits, drawn with probability ∝ exp((z − max) / T). */
  private int drawTopK(ByteBuffer z, int row, int vocab, float max, SplittableRandom random) {
    int[] best = TopK.indices(z, row, vocab, sampling.topK());
    return best[draw(z, row, best, best.length, max, random)];
  }

  /**
   * One of the fewest most probable tokens whose probabilities at temperature T sum to at least p, drawn
   * with probability ∝ exp((z − max) / T). Tokens are ordered by logit, equal logits by id.
   */
  private int drawTopP(ByteBuffer z, int row, int vocab, float max, SplittableRandom random) {
    long[] order = new long[vocab];
    double total = 0;
    for (int j = 0; j < vocab; j++) {
      float v = z.getFloat(4 * (row + j));
      total += weight(v, max);
      int bits = Float.floatToIntBits(v);
      int ascending = bits ^ ((bits >> 31) & 0x7fffffff);
      // largest logit first, then the lower id
      order[j] = ((long) ~ascending << 32) | j;
    }
    Arrays.sort(order);
    int[] nucleus = new int[vocab];
    double kept = 0;
    int n = 0;
    while (n < vocab && kept < sampling.topP() * total) {
      nucleus[n] = (int) order[n];
      kept += weight(z.getFloat(4 * (row + nucleus[n])), max);
      n++;
    }
    return nucleus[draw(z, row, nucleus, Math.max(n, 1), max, random)];
  }

  /** An index into candidates[0 … n − 1], drawn with probability ∝ exp((z − max) / T). */
  private int draw(ByteBuffer z, int row, int[] candidates, int n, float max, SplittableRandom random) {
    double total = 0;
    for (int j = 0; j < n; j++) {
      total += weight(z.getFloat(4 * (row + candidates[j])), max);
    }
    double u = random.nextDouble() * total;
    double sum = 0;
    for (int j = 0; j < n - 1; j++) {
      sum += weight(z.getFloat(4 * (row + candidates[j])), max);
      if (u < sum) {
        return j;
      }
    }
    return n - 1;
  }

  private double weight(float logit, float max) {
    return Math.exp((logit - max) / sampling.temperature());
  }
}
