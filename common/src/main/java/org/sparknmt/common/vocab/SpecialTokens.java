package org.sparknmt.common.vocab;

/**
 * The reserved ids of every sparknmt vocabulary. The model pads with {@link #PAD} (masked out of
 * attention and loss), starts decoding from {@link #BOS}, stops at {@link #EOS}; {@link #UNK} is
 * reserved but never produced by encoding, since byte fallback covers every character. Ids
 * {@code 4..259} are the 256 byte tokens {@code <0x00>..<0xFF>}; {@link #WORD} is the
 * SentencePiece-style word-start marker "▁" (U+2581), which stands for the space before a word.
 */
public final class SpecialTokens {
  public static final int PAD = 0;
  public static final int BOS = 1;
  public static final int EOS = 2;
  public static final int UNK = 3;
  /** The id of byte token {@code <0x00>}; byte {@code b} is {@code BYTE_OFFSET + b}. */
  public static final int BYTE_OFFSET = 4;
  /** The word-start marker "▁". */
  public static final int WORD = BYTE_OFFSET + 256;
  /** The first id of the learned alphabet; merges follow the alphabet. */
  public static final int FIRST_CHAR = WORD + 1;
  /** U+2581, the marker's character; in text it is always byte-encoded, so decoding stays exact. */
  public static final int WORD_CHAR = 0x2581;

  static final String[] NAMES = {"<pad>", "<s>", "</s>", "<unk>"};

  private SpecialTokens() {}
}
