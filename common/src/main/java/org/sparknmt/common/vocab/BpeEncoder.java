package org.sparknmt.common.vocab;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes normalized text to ids of a {@link BpeModel} and decodes ids back, losslessly:
 * {@code decode(encode(s)).equals(s)} for every text with single spaces and no space at either end
 * (what {@link org.sparknmt.common.clean.Normalizer} produces). Each word becomes "▁" plus its
 * characters, merged by BPE rank inside each run of one {@link CharacterClasses character class} (across
 * the whole word for a vocabulary of the first format); a character outside the alphabet (and a literal "▁") becomes its
 * UTF-8 byte tokens, which never merge. Not thread-safe: it caches the ids of recent words, so give
 * each thread (each Spark partition) its own.
 */
public final class BpeEncoder {
  private static final int CACHE_LIMIT = 1 << 17;

  private final BpeModel model;
  private final Map<Integer, Integer> charIds = new HashMap<>();
  /** (left, right) -> merged id; lower ids were learned earlier and so merge first. */
  private final Map<Long, Integer> mergeIds = new HashMap<>();
  private final Map<String, int[]> cache = new HashMap<>();

  public BpeEncoder(BpeModel model) {
    this.model = model;
    int[] alphabet = model.alphabet();
    for (int i = 0; i < alphabet.length; i++) {
      charIds.put(alphabet[i], SpecialTokens.FIRST_CHAR + i);
    }
    for (int k = 0; k < model.merges(); k++) {
      int[] m = model.merge(k);
      mergeIds.putIfAbsent(BpeLearner.key(m[0], m[1]), model.firstMergeId() + k);
    }
  }

  public BpeModel model() {
    return model;
  }

  /** The ids of {@code normalized}, without BOS or EOS. */
  public int[] encode(String normalized) {
    int[] out = new int[normalized.length() + 8];
    int n = 0;
    int start = 0;
    while (start < normalized.length()) {
      int end = normalized.indexOf(' ', start);
      if (end < 0) {
        end = normalized.length();
      }
      int[] ids = encodeWord(normalized.substring(start, end));
      if (n + ids.length > out.length) {
        out = Arrays.copyOf(out, Math.max(out.length * 2, n + ids.length));
      }
      System.arraycopy(ids, 0, out, n, ids.length);
      n += ids.length;
      start = end + 1;
    }
    return Arrays.copyOf(out, n);
  }

  private int[] encodeWord(String word) {
    int[] ids = cache.get(word);
    if (ids == null) {
      if (cache.size() >= CACHE_LIMIT) {
        cache.clear();
      }
      ids = merge(word);
      cache.put(word, ids);
    }
    return ids;
  }

  /** BPE on one word, run by run when the vocabulary splits character classes. */
  private int[] merge(String word) {
    if (!model.splitsCharacterClasses()) {
      return merge(word, true);
    }
    List<String> runs = CharacterClasses.runs(word);
    if (runs.size() == 1) {
      return merge(word, true);
    }
    int[][] parts = new int[runs.size()][];
    int length = 0;
    for (int r = 0; r < parts.length; r++) {
      parts[r] = merge(runs.get(r), r == 0);
      length += parts[r].length;
    }
    int[] ids = new int[length];
    int n = 0;
    for (int[] part : parts) {
      System.arraycopy(part, 0, ids, n, part.length);
      n += part.length;
    }
    return ids;
  }

  /**
   * BPE on one run of characters (after the word marker when it starts a word): repeatedly join the
   * adjacent pair learned first. Unknown characters are {@code -(cp + 1)}.
   */
  private int[] merge(String run, boolean wordStart) {
    int[] s = BpeLearner.symbols(run, wordStart, charIds);
    int n = s.length;
    while (n > 1) {
      int best = Integer.MAX_VALUE;
      int at = -1;
      for (int i = 0; i + 1 < n; i++) {
        if (s[i] >= 0 && s[i + 1] >= 0) {
          Integer merged = mergeIds.get(BpeLearner.key(s[i], s[i + 1]));
          if (merged != null && merged < best) {
            best = merged;
            at = i;
          }
        }
      }
      if (at < 0) {
        break;
      }
      s[at] = best;
      System.arraycopy(s, at + 2, s, at + 1, n - at - 2);
      n--;
    }
    return withBytes(s, n);
  }

  private static int[] withBytes(int[] s, int n) {
    int[] out = new int[n * 4];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (s[i] >= 0) {
        out[m++] = s[i];
      } else {
        for (byte b : Character.toString(-s[i] - 1).getBytes(StandardCharsets.UTF_8)) {
          out[m++] = SpecialTokens.BYTE_OFFSET + (b & 0xFF);
        }
      }
    }
    return Arrays.copyOf(out, m);
  }

  /** The text of {@code ids}; reserved ids (pad, BOS, EOS, unk) are skipped. */
  public String decode(int[] ids) {
    StringBuilder text = new StringBuilder();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int id : ids) {
      if (id >= SpecialTokens.BYTE_OFFSET && id < SpecialTokens.WORD) {
        bytes.write(id - SpecialTokens.BYTE_OFFSET);
        continue;
      }
      flush(bytes, text);
      if (id >= SpecialTokens.WORD && id < model.size()) {
        text.append(model.piece(id).replace((char) SpecialTokens.WORD_CHAR, ' '));
      }
    }
    flush(bytes, text);
    return text.length() > 0 && text.charAt(0) == ' ' ? text.substring(1) : text.toString();
  }

  private static void flush(ByteArrayOutputStream bytes, StringBuilder text) {
    if (bytes.size() > 0) {
      text.append(bytes.toString(StandardCharsets.UTF_8));
      bytes.reset();
    }
  }
}
