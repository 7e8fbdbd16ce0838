package org.sparknmt.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.clean.Normalizer;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.SpecialTokens;
import org.sparknmt.model.decode.AttentionMaps;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.Translator;

/** A checkpoint of a run with the run's vocabulary: translates one sentence and returns its attention maps. */
public final class RunModel {
  private final CheckpointStore.Checkpoint checkpoint;
  private final BpeEncoder bpe;
  private final Translator translator;

  private RunModel(TrainedModel.WithVocabulary opened) {
    this.checkpoint = opened.model().checkpoint();
    this.bpe = new BpeEncoder(opened.vocabulary());
    this.translator = opened.model().translator();
  }

  /** Opens checkpoint {@code spec} (latest, best, step-N, a name or a path) of {@code run} with the run's vocabulary. */
  public static RunModel open(String run, String spec, Configuration hadoop) throws IOException {
    return new RunModel(TrainedModel.open(run, spec, hadoop));
  }

  public CheckpointStore.Checkpoint checkpoint() {
    return checkpoint;
  }

  public BpeEncoder encoder() {
    return bpe;
  }

  /** The attention of {@code source} text and its greedy translation, or of {@code target} when given (teacher-forced). */
  public SentenceAttention attention(String source, Optional<String> target) {
    String text = Normalizer.normalize(source);
    if (text.isEmpty()) {
      throw new UsageException("--src is empty after normalization");
    }
    int[] sourceIds = bpe.encode(text);
    int[] output = target.map(t -> bpe.encode(Normalizer.normalize(t))).orElse(null);
    if (output != null && output.length == 0) {
      throw new UsageException("--tgt is empty after normalization");
    }
    return attention(sourceIds, output);
  }

  /** The attention of encoded ids (without EOS); {@code output} null: the greedy translation. */
  public SentenceAttention attention(int[] sourceIds, int[] output) {
    int[] withEos = TrainedModel.source(sourceIds);
    int[] out = output != null ? output
        : translator.beam(new int[][] {withEos}, DecodingOptions.greedy()).get(0).tokens();
    AttentionMaps maps = translator.attention(withEos, out);
    List<String> sourceTokens = pieces(sourceIds);
    sourceTokens.add(bpe.model().piece(SpecialTokens.EOS));
    List<String> decoderTokens = new ArrayList<>();
    decoderTokens.add(bpe.model().piece(SpecialTokens.BOS));
    decoderTokens.addAll(pieces(out));
    return new SentenceAttention(bpe.decode(sourceIds), bpe.decode(out), sourceTokens, decoderTokens, maps);
  }

  private List<String> pieces(int[] ids) {
    List<String> out = new ArrayList<>(ids.length);
    for (int id : ids) {
      out.add(bpe.model().piece(id));
    }
    return out;
  }
}
