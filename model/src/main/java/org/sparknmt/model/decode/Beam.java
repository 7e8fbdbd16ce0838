package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The beam of one sentence: up to k live hypotheses of equal length, and the finished ones with
 * their length-normalized scores. Done once k hypotheses have finished (fairseq's stopping rule)
 * or nothing is left alive.
 */
final class Beam {
  private record Finished(Hypothesis hypothesis, double score, boolean endedWithEos) {}

  private record Candidate(int parentIndex, Hypothesis parent, int token, double logProbability) {
    double total() {
      return parent.logProbability() + logProbability;
    }
  }

  private final int width;
  private final int eos;
  private final int maxLength;
  private final LengthPenalty penalty;
  private List<Hypothesis> active;
  private int[] parents = {0};
  private final List<Finished> finished = new ArrayList<>();

  Beam(int width, int bos, int eos, int maxLength, LengthPenalty penalty) {
    this.width = width;
    this.eos = eos;
    this.maxLength = maxLength;
    this.penalty = penalty;
    this.active = List.of(Hypothesis.start(bos));
  }

  /** One beam per source sentence; outputs are also bounded by the model's positions (BOS takes one). */
  static List<Beam> forEach(int[][] sources, DecodingOptions options, ControlTokens tokens, int modelMaxLength) {
    List<Beam> beams = new ArrayList<>();
    for (int[] s : sources) {
      beams.add(new Beam(options.beamWidth(), tokens.bos(), tokens.eos(),
          options.maxOutputLength(s.length, modelMaxLength - 1), options.lengthPenalty()));
    }
    return beams;
  }

  /** The most tokens an output may have (EOS included), and so the most decoding steps. */
  int maxLength() {
    return maxLength;
  }

  boolean done() {
    return finished.size() >= width || active.isEmpty();
  }

  List<Hypothesis> active() {
    return active;
  }

  /** The continuations advance() needs of each live hypothesis: twice the width, as EOS may take up to width of them. */
  int candidatesPerHypothesis() {
    return 2 * width;
  }

  /** Extends the live hypotheses by one token; row i of continuations holds the best of of active().get(i). */
  void advance(NextTokens continuations) {
    List<Candidate> candidates = new ArrayList<>();
    for (int i = 0; i < active.size(); i++) {
      for (int j = 0; j < continuations.tokens()[i].length; j++) {
        candidates.add(new Candidate(i, active.get(i), continuations.tokens()[i][j], continuations.logProbabilities()[i][j]));
      }
    }
    candidates.sort(Comparator.comparingDouble(Candidate::total).reversed());
    List<Hypothesis> next = new ArrayList<>(width);
    int[] nextParents = new int[width];
    for (Candidate c : candidates) {
      if (next.size() == width || finished.size() >= width) {
        break;
      }
      Hypothesis h = c.parent().extend(c.token(), c.logProbability());
      if (c.token() == eos || h.length() >= maxLength) {
        finished.add(new Finished(h, penalty.normalize(h.logProbability(), h.length()), c.token() == eos));
      } else {
        nextParents[next.size()] = c.parentIndex();
        next.add(h);
      }
    }
    active = next;
    parents = Arrays.copyOf(nextParents, next.size());
  }

  /** For each of active(), the index of its parent in the active() before the last advance. */
  int[] parents() {
    return parents;
  }

  /** The finished hypothesis with the best normalized score. */
  Translation best() {
    Finished best = finished.stream().max(Comparator.comparingDouble(Finished::score))
        .orElseThrow(() -> new IllegalStateException("beam ended without a finished hypothesis"));
    return translation(best);
  }

  /**
   * The n finished hypotheses with the best normalized scores, best first (equal scores in the order they
   * finished, so the first is {@link #best()}); fewer when fewer finished.
   */
  List<Translation> nbest(int n) {
    return finished().stream().sorted(Comparator.comparingDouble(Translation::score).reversed()).limit(n).toList();
  }

  /** The finished hypotheses, in the order they finished. */
  List<Translation> finished() {
    return finished.stream().map(this::translation).toList();
  }

  private Translation translation(Finished f) {
    return new Translation(f.hypothesis().output(eos), f.score(), f.endedWithEos());
  }
}
