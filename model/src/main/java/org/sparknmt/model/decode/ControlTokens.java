package org.sparknmt.model.decode;

/** The ids of the vocabulary's control tokens that decoding needs. */
public record ControlTokens(int pad, int bos, int eos) {
  public ControlTokens {
    if (pad < 0 || bos < 0 || eos < 0) {
      throw new IllegalArgumentException("token ids must be non-negative: pad=" + pad + " bos=" + bos + " eos=" + eos);
    }
  }
}
