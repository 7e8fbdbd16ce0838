package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.sparknmt.model.nn.Transformer;

/**
 * The test oracle for {@link BeamSearch}: the same search without a cache, rerunning the decoder's
 * training forward pass (causal mask) over every live hypothesis's whole prefix at every step.
 */
final class FullRecomputeSearch {
  private final List<Transformer> models;
  private final ControlTokens tokens;

  FullRecomputeSearch(Transformer model, ControlTokens tokens) {
    this(List.of(model), tokens);
  }

  /** An ensemble's search: each step's log-probabilities are the models' mean, renormalized (in double). */
  FullRecomputeSearch(List<Transformer> models, ControlTokens tokens) {
    this.models = models;
    this.tokens = tokens;
  }

  List<Translation> search(int[][] sources, DecodingOptions options, DataType type) {
    return beams(sources, options, type).stream().map(Beam::best).toList();
  }

  /** Each source's beam, searched to its end. */
  List<Beam> beams(int[][] sources, DecodingOptions options, DataType type) {
    return beams(sources, null, options, type);
  }

  /** Each source's beam, its outputs starting with prefixes[i] (null: none), searched to its end. */
  List<Beam> beams(int[][] sources, int[][] prefixes, DecodingOptions options, DataType type) {
    SourceBatch src = SourceBatch.of(sources, tokens.pad(), type);
    List<INDArray> memoryRows = new ArrayList<>();
    for (Transformer model : models) {
      INDArray memory = model.encode(src.size(), src.ids(), src.keep(), type, false);
      memoryRows.add(memory.reshape(src.size(), (long) src.length() * memory.size(1))); // [batch, t_src·d]
    }
    List<Beam> beams = Beam.forEach(sources, prefixes, options, tokens, models.get(0).config().maxLength());
    for (int t = 1; beams.stream().anyMatch(b -> !b.done()); t++) {
      List<Integer> sentence = new ArrayList<>();
      List<int[]> decoded = new ArrayList<>();
      for (int i = 0; i < beams.size(); i++) {
        if (!beams.get(i).done()) {
          for (Hypothesis h : beams.get(i).active()) {
            sentence.add(i);
            decoded.add(h.tokens());
          }
        }
      }
      float[][] next = mean(sentence, decoded, t, memoryRows, src);
      int row = 0;
      for (Beam beam : beams) {
        if (!beam.done()) {
          int n = beam.active().size();
          float[][] mine = new float[n][];
          System.arraycopy(next, row, mine, 0, n);
          beam.advance(beam.forced() >= 0 ? forced(mine, beam.forced()) : best(mine, beam.candidatesPerHypothesis()));
          row += n;
        }
      }
    }
    return beams;
  }

  /** The models' next-token log-probabilities [n][vocab], or their mean renormalized. */
  private float[][] mean(List<Integer> sentence, List<int[]> prefixes, int t, List<INDArray> memoryRows,
      SourceBatch src) {
    if (models.size() == 1) {
      return nextTokenLogProbabilities(models.get(0), sentence, prefixes, t, memoryRows.get(0), src);
    }
    List<float[][]> each = new ArrayList<>();
    for (int m = 0; m < models.size(); m++) {
      each.add(nextTokenLogProbabilities(models.get(m), sentence, prefixes, t, memoryRows.get(m), src));
    }
    float[][] mean = new float[each.get(0).length][each.get(0)[0].length];
    for (int i = 0; i < mean.length; i++) {
      double[] row = new double[mean[i].length];
      double normalizer = 0;
      for (int j = 0; j < row.length; j++) {
        for (float[][] logProbabilities : each) {
          row[j] += logProbabilities[i][j];
        }
        row[j] /= each.size();
        normalizer += Math.exp(row[j]);
      }
      for (int j = 0; j < row.length; j++) {
        mean[i][j] = (float) (row[j] - Math.log(normalizer));
      }
    }
    return mean;
  }

  /** Runs a model's decoder over n prefixes of length t; returns the next-token log-probabilities [n][vocab]. */
  private static float[][] nextTokenLogProbabilities(Transformer model, List<Integer> sentence, List<int[]> prefixes,
      int t, INDArray memoryRows, SourceBatch src) {
    int d = (int) (memoryRows.size(1) / src.length());
    int n = prefixes.size();
    int[] rows = sentence.stream().mapToInt(Integer::intValue).toArray();
    int[] ids = new int[n * t];
    for (int i = 0; i < n; i++) {
      System.arraycopy(prefixes.get(i), 0, ids, i * t, t);
    }
    INDArray memory = Nd4j.pullRows(memoryRows, 1, rows).reshape((long) n * src.length(), d);
    INDArray keep = Nd4j.pullRows(src.keep(), 1, rows);
    INDArray states = model.decode(n, ids, null, memory, keep, false);
    INDArray last = states.reshape(n, t, d).get(NDArrayIndex.all(), NDArrayIndex.point(t - 1), NDArrayIndex.all());
    return model.logProbabilities(last.dup('c')).castTo(DataType.FLOAT).toFloatMatrix();
  }

  /** The one token every row must take, with its log-probability in full rows [n][vocab]. */
  static NextTokens forced(float[][] logProbabilities, int token) {
    int[][] tokens = new int[logProbabilities.length][];
    float[][] chosen = new float[logProbabilities.length][];
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] = new int[] {token};
      chosen[i] = new float[] {logProbabilities[i][token]};
    }
    return new NextTokens(tokens, chosen);
  }

  /** The k best tokens of full rows of log-probabilities [n][vocab]. */
  static NextTokens best(float[][] logProbabilities, int k) {
    int[][] tokens = new int[logProbabilities.length][];
    float[][] best = new float[logProbabilities.length][];
    for (int i = 0; i < tokens.length; i++) {
      float[] row = logProbabilities[i];
      // a stable sort, not the search's TopK: equal values keep the lower index first, as TopK does
      tokens[i] = IntStream.range(0, row.length).boxed()
          .sorted(Comparator.comparingDouble((Integer j) -> row[j]).reversed()).limit(k).mapToInt(Integer::intValue).toArray();
      best[i] = new float[tokens[i].length];
      for (int j = 0; j < best[i].length; j++) {
        best[i][j] = row[tokens[i][j]];
      }
    }
    return new NextTokens(tokens, best);
  }
}
