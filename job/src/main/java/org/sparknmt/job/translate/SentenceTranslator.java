package org.sparknmt.job.translate;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.datasets.clean.Normalizer;
import org.sparknmt.datasets.vocab.BpeEncoder;
import org.sparknmt.job.checkpoint.TrainedModel;
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
    List<int[]> sources = new ArrayList<>();
    int[] firstPiece = new int[lines.size()];
    int[] pieceCount = new int[lines.size()];
    for (int i = 0; i < lines.size(); i++) {
      firstPiece[i] = sources.size();
      String text = Normalizer.normalize(stripBom(capped(lines.get(i))));
      if (!text.isEmpty()) {
        for (int[] piece : LongSentences.pieces(encoder.encode(text), pieceLimit, encoder.model())) {
          sources.add(TrainedModel.source(piece));
        }
      }
      pieceCount[i] = sources.size() - firstPiece[i];
    }
    Translation[] translations = LengthSortedBatches.translate(translator, sources.toArray(int[][]::new),
        config.decoding(), config.batchSize());
    List<String> out = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      StringBuilder line = new StringBuilder();
      for (int p = firstPiece[i]; p < firstPiece[i] + pieceCount[i]; p++) {
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
