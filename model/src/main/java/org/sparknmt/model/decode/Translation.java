package org.sparknmt.model.decode;

/**
 * One decoded sentence.
 *
 * @param tokens output ids, without BOS and EOS
 * @param score the summed log-probability (greedy) or the length-normalized score (beam search)
 * @param finished whether the output ended with EOS (false: cut at the maximum length)
 */
public record Translation(int[] tokens, double score, boolean finished) {}
