package org.sparknmt.translate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.clean.Normalizer;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.model.decode.LengthSortedBatches;
import org.sparknmt.model.decode.Sampling;
import org.sparknmt.model.decode.Translation;
import org.sparknmt.model.decode.Translator;

/**
 * Text in, text out: each line is normalized as prepare normalizes training text, encoded to
 * subwords, searched in length-sorted batches and decoded, one output line per input line in the
 * same order. An empty (or all-whitespace) line gives an empty line without a search; a line longer
 * than the model's positions is translated in pieces, and one longer than
 * {@link LongSentences#maxChars} characters is cut there first ({@link LongSentences}). Not thread-safe (the
 * encoder caches, the translator keeps forward state): one per task.
 */
public final class SentenceTranslator {
  private static final String BOM = "\uFEFF";
  private static final Logger LOG = LoggerFactory.getLogger(SentenceTranslator.class);

  private final Translator translator;
  private final BpeEncoder encoder;
  private final TranslateConfig config;
  private final int pieceLimit;
  private final int maxChars;
  private long targetTokens;

  /**
   * @param maxLength the model's max_length: a source piece holds at most {@code maxLength - 1} subwords and EOS
   */
  public SentenceTranslator(Translator translator, BpeEncoder encoder, TranslateConfig config, int maxLength) {
    this.translator = translator;
    this.encoder = encoder;
    this.config = config;
    this.pieceLimit = maxLength - 1;
    this.maxChars = LongSentences.maxChars(pieceLimit);
  }

  /** The translations of {@code lines}, in their order; a translation never contains a line break. */
  public List<String> translate(List<String> lines) {
    Pieces pieces = pieces(lines);
    Translation[] translations = LengthSortedBatches.translate(translator, pieces.sources(), config.search(),
        config.batchSize());
    List<String> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      StringBuilder line = new StringBuilder();
      for (int p = pieces.first()[i]; p < pieces.first()[i + 1]; p++) {
        String piece = oneLine(encoder.decode(translations[p].tokens()));
        targetTokens += translations[p].tokens().length;
        if (!piece.isEmpty()) {
          line.append(line.length() > 0 ? " " : "").append(piece);
        }
      }
      out.add(line.toString());
    }
    return out;
  }

  /**
   * The hypotheses of each of {@code lines} as {@code wanted} asks: the n best of the beam search, or one
   * sample, with alignments or without. {@code lineIds[i]}, the number of line i in its input, seeds its
   * sample ({@link Sampling#sentenceSeed}). A line translated in pieces gets as many hypotheses as its
   * piece with the most: hypothesis h joins each piece's h-th (its last when it has fewer), scored by the
   * mean of their scores; an empty line gets one empty hypothesis scored 0.
   *
   * @param prefixes the target prefix of each line (normalized and encoded as the lines are; its first piece's
   *     translations start with it), or null for none; an empty one is none
   * @throws UsageException naming --prefix and the line when a prefix has more subwords than the model's
   *     positions leave (BOS and EOS take one each)
   */
  public List<List<LineHypothesis>> hypotheses(List<String> lines, long[] lineIds, List<String> prefixes,
      HypothesesConfig wanted) {
    return hypotheses(lines, lineIds, prefixes, i -> "--prefix (translate.prefix), line " + (lineIds[i] + 1), wanted);
  }

  /**
   * As {@link #hypotheses(List, long[], List, HypothesesConfig)}, with prefixes from elsewhere than a file.
   *
   * @param prefixOrigin where the prefix of line i comes from, for the error on a too long one
   */
  public List<List<LineHypothesis>> hypotheses(List<String> lines, long[] lineIds, List<String> prefixes,
      IntFunction<String> prefixOrigin, HypothesesConfig wanted) {
    Pieces pieces = pieces(lines);
    int[][] sources = pieces.sources();
    int[][] forced = prefixes == null ? null : forced(pieces, prefixes, prefixOrigin);
    Sampling sampling = wanted.sampling();
    List<List<Aligned>> searched = LengthSortedBatches.inBatches(sources, config.batchSize(), (batch, rows) -> {
      int[][] batchPrefixes = forced == null ? null : Arrays.stream(rows).mapToObj(r -> forced[r]).toArray(int[][]::new);
      List<List<Translation>> found;
      if (sampling == null) {
        found = translator.nbest(batch, batchPrefixes, config.search(), wanted.nbest());
      } else {
        long[] seeds = new long[rows.length];
        for (int k = 0; k < rows.length; k++) {
          int line = pieces.lineOf()[rows[k]];
          seeds[k] = Sampling.sentenceSeed(wanted.seed(), lineIds[line], rows[k] - pieces.first()[line]);
        }
        found = translator.sample(batch, batchPrefixes, config.search(), sampling, seeds).stream()
            .map(List::of).toList();
      }
      return aligned(batch, found, wanted.alignments());
    });
    List<List<LineHypothesis>> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      int from = pieces.first()[i];
      int to = pieces.first()[i + 1];
      int count = 1;
      for (int p = from; p < to; p++) {
        count = Math.max(count, searched.get(p).size());
        targetTokens += searched.get(p).get(0).translation().tokens().length;
      }
      List<LineHypothesis> line = new ArrayList<>(count);
      for (int h = 0; h < count; h++) {
        StringBuilder text = new StringBuilder();
        WordAlignment alignment = wanted.alignments() ? new WordAlignment(encoder.model()) : null;
        double score = 0;
        for (int p = from; p < to; p++) {
          List<Aligned> hypotheses = searched.get(p);
          Aligned a = hypotheses.get(Math.min(h, hypotheses.size() - 1));
          String piece = oneLine(encoder.decode(a.translation().tokens()));
          if (!piece.isEmpty()) {
            text.append(text.length() > 0 ? " " : "").append(piece);
          }
          score += a.translation().score();
          if (alignment != null) {
            alignment.add(sources[p], a.translation().tokens(), a.alignment());
          }
        }
        line.add(new LineHypothesis(text.toString(), to > from ? score / (to - from) : 0,
            alignment == null ? null : alignment.pharaoh()));
      }
      out.add(line);
    }
    return out;
  }

  /** A hypothesis of a source piece with its subword alignment (null when not asked for). */
  private record Aligned(Translation translation, int[] alignment) {}

  /** The hypotheses of a batch of sources, each with its alignment when asked for: one teacher-forced pass for all. */
  private List<List<Aligned>> aligned(int[][] batch, List<List<Translation>> found, boolean alignments) {
    int[][] alignment = null;
    if (alignments) {
      List<int[]> sources = new ArrayList<>();
      List<int[]> outputs = new ArrayList<>();
      for (int k = 0; k < batch.length; k++) {
        for (Translation t : found.get(k)) {
          sources.add(batch[k]);
          outputs.add(t.tokens());
        }
      }
      alignment = translator.alignments(sources.toArray(int[][]::new), outputs.toArray(int[][]::new));
    }
    List<List<Aligned>> out = new ArrayList<>(batch.length);
    int row = 0;
    for (List<Translation> hypotheses : found) {
      List<Aligned> a = new ArrayList<>(hypotheses.size());
      for (Translation t : hypotheses) {
        a.add(new Aligned(t, alignment == null ? null : alignment[row++]));
      }
      out.add(a);
    }
    return out;
  }

  /** The prefix of each source piece: a line's on its first piece, none (null) on the others. */
  private int[][] forced(Pieces pieces, List<String> prefixes, IntFunction<String> origin) {
    int[][] forced = new int[pieces.sources().length][];
    for (int i = 0; i < prefixes.size(); i++) {
      String text = Normalizer.normalize(stripBom(prefixes.get(i)));
      if (text.isEmpty() || pieces.first()[i] == pieces.first()[i + 1]) {
        continue;
      }
      int[] prefix = encoder.encode(text);
      if (prefix.length > translator.maxPrefixLength()) {
        throw new UsageException(origin.apply(i) + ": " + prefix.length
            + " subwords, more than the " + translator.maxPrefixLength() + " the model's positions leave"
            + " (model.max_length less BOS and EOS)");
      }
      forced[pieces.first()[i]] = prefix;
    }
    return forced;
  }

  /**
   * A block's lines as source pieces: line i's are sources[first[i] … first[i + 1] − 1], and piece p
   * belongs to line lineOf[p].
   */
  private record Pieces(int[][] sources, int[] first, int[] lineOf) {}

  private Pieces pieces(List<String> lines) {
    List<int[]> sources = new ArrayList<>();
    List<Integer> lineOf = new ArrayList<>();
    int[] first = new int[lines.size() + 1];
    for (int i = 0; i < lines.size(); i++) {
      first[i] = sources.size();
      String text = Normalizer.normalize(stripBom(capped(lines.get(i))));
      if (!text.isEmpty()) {
        for (int[] piece : LongSentences.pieces(encoder.encode(text), pieceLimit, encoder.model())) {
          sources.add(TrainedModel.source(piece));
          lineOf.add(i);
        }
      }
    }
    first[lines.size()] = sources.size();
    return new Pieces(sources.toArray(int[][]::new), first, lineOf.stream().mapToInt(Integer::intValue).toArray());
  }

  /** Output subwords produced so far (EOS not counted). */
  public long targetTokens() {
    return targetTokens;
  }

  private String capped(String line) {
    String capped = LongSentences.capped(line, maxChars);
    if (capped.length() < line.length()) {
      LOG.warn("a line of {} characters is translated up to its first {} (\"{}...\"); the rest is dropped",
          line.length(), capped.length(), line.substring(0, Math.min(40, line.length())));
    }
    return capped;
  }

  /** A text file's byte order mark is not part of the sentence. */
  private static String stripBom(String line) {
    return line.startsWith(BOM) ? line.substring(1) : line;
  }

  /** The model can emit the bytes of '\n' or '\r'; they would break the line-for-line output, so they become spaces. */
  private static String oneLine(String text) {
    return text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : Normalizer.collapseWhitespace(text);
  }
}
