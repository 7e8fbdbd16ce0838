package org.sparknmt.job.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.sparknmt.datasets.clean.Normalizer;
import org.sparknmt.datasets.spark.PreparedData;
import org.sparknmt.datasets.spark.RunLayout;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.datasets.vocab.BpeModel;
import org.sparknmt.datasets.vocab.SpecialTokens;
import org.sparknmt.job.checkpoint.CheckpointStore;
import org.sparknmt.model.ModelArtifact;
import org.sparknmt.model.decode.AttentionMaps;
import org.sparknmt.model.decode.Translator;

/** A checkpoint of a run with the run's vocabulary: translates one sentence and returns its attention maps. */
public final class RunModel {
  /** Greedy output length limit a·|source| + b, as validation BLEU uses. */
  private static final double MAX_LENGTH_A = 1.5;
  private static final int MAX_LENGTH_B = 10;

  private final CheckpointStore.Checkpoint checkpoint;
  private final BpeEncoder bpe;
  private final Translator translator;

  private RunModel(CheckpointStore.Checkpoint checkpoint, BpeModel vocabulary, Translator translator) {
    this.checkpoint = checkpoint;
    this.bpe = new BpeEncoder(vocabulary);
    this.translator = translator;
  }

  /** Opens checkpoint {@code spec} (latest, best, step-N, a name or a path) of {@code run}, checking the vocabulary hash. */
  public static RunModel open(String run, String spec, Configuration hadoop) throws IOException {
    CheckpointStore store = new CheckpointStore(run, hadoop);
    CheckpointStore.Checkpoint checkpoint = store.resolve(spec);
    String hash = checkpoint.state().vocabularySha256();
    BpeModel vocabulary = PreparedData.readVocabulary(RunLayout.of(run).data(), hash, hadoop);
    try (InputStream in = store.openModel(checkpoint)) {
      var graph = ModelArtifact.read(in, hash, checkpoint.path().toString()).graph();
      return new RunModel(checkpoint, vocabulary, Translator.of(graph,
          new org.sparknmt.model.decode.SpecialTokens(SpecialTokens.PAD, SpecialTokens.BOS, SpecialTokens.EOS)));
    }
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
      throw new IllegalArgumentException("--src is empty after normalization");
    }
    int[] sourceIds = bpe.encode(text);
    int[] output = target.map(t -> bpe.encode(Normalizer.normalize(t))).orElse(null);
    if (output != null && output.length == 0) {
      throw new IllegalArgumentException("--tgt is empty after normalization");
    }
    return attention(sourceIds, output);
  }

  /** The attention of encoded ids (without EOS); {@code output} null: the greedy translation. */
  public SentenceAttention attention(int[] sourceIds, int[] output) {
    int[] withEos = Arrays.copyOf(sourceIds, sourceIds.length + 1);
    withEos[sourceIds.length] = SpecialTokens.EOS;
    int[] out = output != null ? output
        : translator.greedy(new int[][] {withEos}, MAX_LENGTH_A, MAX_LENGTH_B).get(0).tokens();
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
