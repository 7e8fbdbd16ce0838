package org.sparknmt.translate;

/**
 * An input line with its number in the input (0 = the first) and its target prefix (null: none).
 */
public record NumberedLine(String text, long id, String prefix) implements java.io.Serializable {}
