package org.sparknmt.translate;

/**
 * One translation of an input line.
 *
 * @param text the translation
 * @param score its length-normalized log-probability (natural log), or with sampling its summed
 *     log-probability; a line translated in pieces scores the mean of its pieces
 * @param alignment Pharaoh {@code source-target} pairs of 0-based word indices (words: the input line and the
 *     translation split at spaces), or null when not asked for
 */
public record LineHypothesis(String text, double score, String alignment) implements java.io.Serializable {}
