package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

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
  private final int[] prefix;
  private List<Hypothesis> active;
  private int[] parents = {0};
  private final List<Finished> finished = new ArrayList<>();

  /** prefix: the tokens every output starts with (after BOS), forced whatever their probability; may be empty. */
  Beam(int width, int bos, int eos, int maxLength, LengthPenalty penalty, int[] prefix) {
    this.width = width;
    this.eos = eos;
    this.maxLength = maxLength;
    this.penalty = penalty;
    this.prefix = prefix;
    this.active = List.of(Hypothesis.start(bos));
  }

  /** One beam per source sentence; outputs are also bounded by the model's positions (BOS takes one). */
  static List<Beam> forEach(int[][] sources, DecodingOptions options, ControlTokens tokens, int modelMaxLength) {
    return forEach(sources, null, options, tokens, modelMaxLength);
  }

  /**
   * One beam per source sentence, the outputs of source i starting with prefixes[i] (prefixes null: none). An
   * output's length limit is raised to its prefix and EOS when they are longer, up to the model's positions.
   */
  static List<Beam> forEach(int[][] sources, int[][] prefixes, DecodingOptions options, ControlTokens tokens,
      int modelMaxLength) {
    if (prefixes != null && prefixes.length != sources.length) {
      throw new IllegalArgumentException(prefixes.length + " target prefixes for " + sources.length + " sources");
    }
    List<Beam> beams = new ArrayList<>();
    for (int i = 0; i < sources.length; i++) {
      int[] prefix = prefixes == null || prefixes[i] == null ? new int[0] : prefixes[i];
      int positions = modelMaxLength - 1;
      if (prefix.length > maxPrefixLength(modelMaxLength)) {
        throw new IllegalArgumentException("a target prefix of " + prefix.length + " tokens leaves no room for EOS: "
            + "the model has " + positions + " output positions");
      }
      int limit = Math.max(options.maxOutputLength(sources[i].length, positions), prefix.length + 1);
      beams.add(new Beam(options.beamWidth(), tokens.bos(), tokens.eos(), limit, options.lengthPenalty(), prefix));
    }
    return beams;
  }

  /**
   * The token the next step must append, while the hypotheses are inside the prefix, else −1. (Inside it,
   * one hypothesis is alive, and fillers ({@link #fill}): their only continuation is the forced token.)
   */
  int forced() {
    int position = active.isEmpty() ? prefix.length : active.get(0).length();
    return position < prefix.length ? prefix[position] : -1;
  }

  /** The forced token of each row of a step over the live beams' hypotheses ({@link #forced}), −1 for free rows. */
  static int[] forcedRows(List<Beam> live) {
    return live.stream().flatMapToInt(b -> IntStream.generate(b::forced).limit(b.active().size()))
        .toArray();
  }

  /** The most tokens a target prefix may have in a model of modelMaxLength positions: BOS and EOS take one each. */
  static int maxPrefixLength(int modelMaxLength) {
    return modelMaxLength - 2;
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
    boolean forcedStep = forced() >= 0;
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
      if (c.total() == Double.NEGATIVE_INFINITY) {
        continue; // a filler's (fill())
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
    if (forcedStep) {
      fill();
    }
  }

  /**
   * After a forced step a beam has one hypothesis, while the search's cache has the same number of
   * hypotheses for every sentence ({@code DecoderCache}), the width once the first step is done. So up to
   * the first free step the beam keeps width − 1 copies of it scored −∞, whose candidates advance() skips.
   */
  private void fill() {
    if (active.isEmpty()) {
      return;
    }
    Hypothesis prefix = active.get(0);
    List<Hypothesis> filled = new ArrayList<>(width);
    filled.add(prefix);
    while (filled.size() < width) {
      filled.add(new Hypothesis(prefix.tokens(), Double.NEGATIVE_INFINITY));
    }
    active = filled;
    int[] filledParents = new int[width];
    Arrays.fill(filledParents, parents[0]);
    parents = filledParents;
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
