package org.sparknmt.model.nn;

/**
 * What the queries of an incremental decoding step attend to: stored keys and values of N sequences,
 * [N·h, T, d_k] each, of which the i-th of a step's n query groups reads sequence {@code sequences[i]}'s
 * first {@code length} positions. Finished sentences and reordered hypotheses change only which sequences
 * are read, so the stored keys and values are never gathered into a new order.
 *
 * @param keep null (every key visible) or [N·T], 1 for a key that may be attended to (source padding)
 */
record CachedKeysValues(KeysValues stored, int[] sequences, int length, float[] keep) {
  CachedKeysValues {
    if (length > stored.keys().size(1)) {
      throw new IllegalArgumentException(length + " positions read of " + stored.keys().size(1) + " stored");
    }
  }
}
