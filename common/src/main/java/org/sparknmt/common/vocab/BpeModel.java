package org.sparknmt.common.vocab;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A joint byte-fallback BPE vocabulary (Sennrich et al. 2016, with SentencePiece's "▁" word marker
 * and byte fallback): ids 0-3 reserved ({@link SpecialTokens}), 256 byte tokens, the marker, the
 * learned alphabet, then one id per merge in the order learned. Immutable; its content hash is the
 * SHA-256 of its canonical JSON ({@link #toJson()}), the bytes written to {@code RUN/data/vocab/}.
 */
public final class BpeModel implements java.io.Serializable {
  /** The format of vocabularies learned today: merges stay inside runs of one character class. */
  public static final String FORMAT = "sparknmt-bpe-2";
  /** The first format, still read: merges anywhere inside a space-separated word. */
  public static final String FORMAT_WHOLE_WORDS = "sparknmt-bpe-1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int[] alphabet;
  private final int[][] merges;
  private final String[] pieces;
  private final boolean splitsCharacterClasses;

  /**
   * @param alphabet the code points with an id of their own, in id order from {@link SpecialTokens#FIRST_CHAR}
   * @param merges pairs {@code [left, right]} of ids; merge {@code k} gets id {@code FIRST_CHAR + alphabet.length + k}
   * @param splitsCharacterClasses whether encoding cuts each word into runs of one {@link CharacterClasses
   *     character class} before merging (format {@value #FORMAT}), or merges across the whole word ({@value
   *     #FORMAT_WHOLE_WORDS}, vocabularies learned before the split existed)
   */
  public BpeModel(int[] alphabet, int[][] merges, boolean splitsCharacterClasses) {
    this.splitsCharacterClasses = splitsCharacterClasses;
    this.alphabet = alphabet.clone();
    this.merges = Arrays.stream(merges).map(int[]::clone).toArray(int[][]::new);
    this.pieces = new String[SpecialTokens.FIRST_CHAR + alphabet.length + merges.length];
    for (int i = 0; i < SpecialTokens.NAMES.length; i++) {
      pieces[i] = SpecialTokens.NAMES[i];
    }
    for (int b = 0; b < 256; b++) {
      pieces[SpecialTokens.BYTE_OFFSET + b] = String.format("<0x%02X>", b);
    }
    pieces[SpecialTokens.WORD] = Character.toString(SpecialTokens.WORD_CHAR);
    for (int i = 0; i < alphabet.length; i++) {
      int cp = alphabet[i];
      if (cp == SpecialTokens.WORD_CHAR || !Character.isValidCodePoint(cp)
          || cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
        throw new IllegalArgumentException("alphabet entry " + i + " (U+" + Integer.toHexString(cp) + ") is not allowed");
      }
      pieces[SpecialTokens.FIRST_CHAR + i] = Character.toString(cp);
    }
    for (int k = 0; k < merges.length; k++) {
      int id = firstMergeId() + k;
      int[] m = merges[k];
      if (m.length != 2 || !isPiece(m[0], id) || !isPiece(m[1], id)) {
        throw new IllegalArgumentException("merge " + k + " " + Arrays.toString(m) + " does not join two earlier pieces");
      }
      pieces[id] = pieces[m[0]] + pieces[m[1]];
    }
  }

  private static boolean isPiece(int id, int before) {
    return id >= SpecialTokens.WORD && id < before;
  }

  public int size() {
    return pieces.length;
  }

  /** Whether encoding merges only inside runs of one character class (see {@link CharacterClasses}). */
  public boolean splitsCharacterClasses() {
    return splitsCharacterClasses;
  }

  /** The id of merge 0; ids from here on are merges. */
  public int firstMergeId() {
    return SpecialTokens.FIRST_CHAR + alphabet.length;
  }

  public int[] alphabet() {
    return alphabet.clone();
  }

  /** Merge {@code k} as {@code [left, right]}. */
  public int[] merge(int k) {
    return merges[k].clone();
  }

  public int merges() {
    return merges.length;
  }

  /** The text of a piece, "▁" marking a word start; byte tokens and reserved ids read {@code <0x41>}, {@code <pad>}. */
  public String piece(int id) {
    return pieces[id];
  }

  /** The canonical file content: UTF-8 JSON, fields in a fixed order. */
  public byte[] toJson() {
    String[] chars = Arrays.stream(alphabet).mapToObj(Character::toString).toArray(String[]::new);
    try {
      return JSON.writeValueAsBytes(new File(splitsCharacterClasses ? FORMAT : FORMAT_WHOLE_WORDS, size(),
          List.of(SpecialTokens.NAMES), chars, merges));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static BpeModel fromJson(byte[] json) {
    File file;
    try {
      file = JSON.readValue(json, File.class);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a sparknmt vocabulary: " + e.getMessage(), e);
    }
    if (!FORMAT.equals(file.format()) && !FORMAT_WHOLE_WORDS.equals(file.format())) {
      throw new IllegalArgumentException(
          "vocabulary format '" + file.format() + "' is neither " + FORMAT + " nor " + FORMAT_WHOLE_WORDS);
    }
    int[] alphabet = Arrays.stream(file.alphabet()).mapToInt(s -> {
      if (s.codePointCount(0, s.length()) != 1) {
        throw new IllegalArgumentException("alphabet entry '" + s + "' is not one character");
      }
      return s.codePointAt(0);
    }).toArray();
    BpeModel model = new BpeModel(alphabet, file.merges(), FORMAT.equals(file.format()));
    if (model.size() != file.size()) {
      throw new IllegalArgumentException("vocabulary declares size " + file.size() + " but holds " + model.size());
    }
    return model;
  }

  /** The SHA-256 of {@link #toJson()}, lower-case hex: the vocabulary's identity in manifests and checkpoints. */
  public String sha256() {
    return sha256(toJson());
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The file layout; reserved names are written for readers, the ids are fixed by {@link SpecialTokens}. */
  private record File(
      @JsonProperty("format") String format,
      @JsonProperty("size") int size,
      @JsonProperty("reserved") List<String> reserved,
      @JsonProperty("alphabet") String[] alphabet,
      @JsonProperty("merges") int[][] merges) {}
}
