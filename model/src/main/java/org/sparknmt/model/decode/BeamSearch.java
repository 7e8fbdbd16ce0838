package org.sparknmt.model.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.model.infer.DecoderCache;
import org.sparknmt.model.infer.IncrementalDecoder;
import org.sparknmt.model.infer.PassWorkspace;
import org.sparknmt.model.infer.SearchEncoder;
import org.sparknmt.model.nn.Transformer;

/**
 * The search loop with incremental decoding: encodes a batch of sources once, then step by step
 * decodes only the newest token of the live hypotheses of all sentences together (the keys and
 * values of earlier positions and of the source come from a {@link DecoderCache}) and lets each
 * sentence's {@link Beam} choose its continuations. Finished sentences and dropped hypotheses leave
 * the batch, so a step's work shrinks as outputs end.
 */
final class BeamSearch {
  private final List<Transformer> models;
  private final ControlTokens tokens;
  private final Shortlist shortlist;

  BeamSearch(Transformer model, ControlTokens tokens) {
    this(List.of(model), tokens);
  }

  BeamSearch(List<Transformer> models, ControlTokens tokens) {
    this(models, tokens, null);
  }

  /**
   * A search of an ensemble: every model encodes the sources and keeps its own cache, and each step's
   * distribution is the mean of their log-probabilities ({@link EnsembleLogits}). With a shortlist (null:
   * none), each batch's steps score only its {@link Shortlist#candidates}.
   *
   * @throws IllegalArgumentException when the models' vocabularies differ in size, or the shortlist's from theirs
   */
  BeamSearch(List<Transformer> models, ControlTokens tokens, Shortlist shortlist) {
    if (models.isEmpty() || models.stream().anyMatch(m -> m.vocabSize() != models.get(0).vocabSize())) {
      throw new IllegalArgumentException("an ensemble needs models of one vocabulary, got vocabularies of "
          + models.stream().map(m -> String.valueOf(m.vocabSize())).toList() + " tokens");
    }
    if (shortlist != null && shortlist.vocabSize() != models.get(0).vocabSize()) {
      throw new IllegalArgumentException("a shortlist of a vocabulary of " + shortlist.vocabSize()
          + " tokens for a model of " + models.get(0).vocabSize());
    }
    this.models = List.copyOf(models);
    this.tokens = tokens;
    this.shortlist = shortlist;
  }

  /** The positions every model has (the fewest of the ensemble's). */
  private int maxLength() {
    return models.stream().mapToInt(m -> m.config().maxLength()).min().getAsInt();
  }

  /** The best translation of each source. */
  List<Translation> search(int[][] sources, DecodingOptions options, DataType type) {
    return searched(sources, null, options, type).stream().map(Beam::best).toList();
  }

  /**
   * The n best finished hypotheses of each source's beam, best first ({@link Beam#nbest}); the outputs of
   * source i start with prefixes[i] (prefixes null: none, a null or empty prefix: none for that source).
   */
  List<List<Translation>> nbest(int[][] sources, int[][] prefixes, DecodingOptions options, int n, DataType type) {
    return searched(sources, prefixes, options, type).stream().map(b -> b.nbest(n)).toList();
  }

  /** Each source's beam, searched to its end. */
  private List<Beam> searched(int[][] sources, int[][] prefixes, DecodingOptions options, DataType type) {
    return run(Beam.forEach(sources, prefixes, options, tokens, maxLength()), sources, prefixes, options, type,
        (logits, live, scored) -> NextTokens.of(logits, live.get(0).candidatesPerHypothesis(),
            Arrays.stream(Beam.forcedRows(live)).map(scored::column).toArray()));
  }

  /**
   * One sampled output per source, source i drawing from its own random stream seeded with seeds[i] and
   * starting with prefixes[i] (as in {@link #nbest}).
   */
  List<Translation> sample(int[][] sources, int[][] prefixes, DecodingOptions options, Sampling sampling, long[] seeds,
      DataType type) {
    if (options.beamWidth() != 1 || seeds.length != sources.length) {
      throw new IllegalArgumentException("sampling keeps one hypothesis per source and needs a seed for each, got beam "
          + options.beamWidth() + " and " + seeds.length + " seeds for " + sources.length + " sources");
    }
    List<Beam> beams = Beam.forEach(sources, prefixes, options, tokens, maxLength());
    return run(beams, sources, prefixes, options, type, new SampledTokens(sampling, beams, seeds))
        .stream().map(Beam::best).toList();
  }

  /**
   * Runs beams (one per source, starting with prefixes as {@link #nbest} reads them) to their end, each step's
   * continuations chosen by next; returns beams.
   */
  private List<Beam> run(List<Beam> beams, int[][] sources, int[][] prefixes, DecodingOptions options, DataType type,
      Continuations next) {
    int vocab = models.get(0).vocabSize();
    int[] candidates = shortlist == null ? null : shortlist.candidates(sources, prefixes, tokens);
    int scoredTokens = candidates == null ? vocab : candidates.length;
    // with fewer tokens than 1 + width a beam can keep fewer than width hypotheses, and the cache needs the same number for each sentence
    if (options.beamWidth() >= scoredTokens) {
      throw new IllegalArgumentException("beam width " + options.beamWidth() + " must be smaller than the tokens scored ("
          + scoredTokens + (candidates == null ? " of the vocabulary)" : " of the shortlist's for this batch)"));
    }
    StepTokens scored = candidates == null ? StepTokens.all() : StepTokens.of(candidates, vocab);
    int maxPositions = beams.stream().mapToInt(Beam::maxLength).max().orElse(0);
    // the encoding and the cache live in the search's workspace, each step's temporaries in one that the
    // next step reuses; only Java arrays (the hypotheses) leave them
    try (MemoryWorkspace pass = PassWorkspace.open(PassWorkspace.SEARCH)) {
      SourceBatch src = SourceBatch.of(sources, tokens.pad(), type);
      DecoderCache[] caches = new DecoderCache[models.size()];
      ShortlistProjection[] projections = new ShortlistProjection[models.size()];
      for (int m = 0; m < caches.length; m++) {
        Transformer model = models.get(m);
        projections[m] = candidates == null ? null : ShortlistProjection.of(model.generator(), candidates);
        INDArray memory = SearchEncoder.encode(model, src.size(), src.ids(), src.keep(), type);
        caches[m] = IncrementalDecoder.start(model.decoder(), memory, src.size(), src.keep(),
            src.size() * options.beamWidth(), maxPositions);
      }
      List<Beam> live = beams;
      for (int position = 0; !live.isEmpty(); position++) {
        try (MemoryWorkspace step = PassWorkspace.open(PassWorkspace.SEARCH_STEP)) {
          int[] newest = newestTokens(live);
          INDArray[] logits = new INDArray[caches.length];
          for (int m = 0; m < caches.length; m++) {
            INDArray states = IncrementalDecoder.step(models.get(m).decoder(), newest, position, caches[m]);
            logits[m] = NextTokens.floatRows(projections[m] == null ? models.get(m).logits(states)
                : projections[m].logits(states));
          }
          live = advance(live, scored.tokens(next.of(EnsembleLogits.mean(logits), live, scored)), caches);
        }
      }
    }
    return beams;
  }

  /** The last token of every live hypothesis, sentence by sentence: the rows of a decoding step. */
  private static int[] newestTokens(List<Beam> live) {
    return live.stream().flatMap(b -> b.active().stream()).mapToInt(h -> h.tokens()[h.tokens().length - 1]).toArray();
  }

  /**
   * Lets each live beam choose its continuations from its rows of next; returns the beams still
   * searching, whose hypotheses' parents (and nothing else) the caches keep.
   */
  private static List<Beam> advance(List<Beam> live, NextTokens next, DecoderCache[] caches) {
    List<Beam> still = new ArrayList<>();
    IntStream.Builder sentences = IntStream.builder();
    IntStream.Builder parents = IntStream.builder();
    int row = 0;
    for (int j = 0; j < live.size(); j++) {
      Beam beam = live.get(j);
      int n = beam.active().size();
      beam.advance(next.rows(row, row + n));
      if (!beam.done()) {
        still.add(beam);
        sentences.add(j);
        for (int parent : beam.parents()) {
          parents.add(row + parent);
        }
      }
      row += n;
    }
    if (!still.isEmpty()) {
      int[] hypotheses = parents.build().toArray();
      int[] kept = sentences.build().toArray();
      for (DecoderCache cache : caches) {
        cache.select(hypotheses, kept);
      }
    }
    return still;
  }
}
