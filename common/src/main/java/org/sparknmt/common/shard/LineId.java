package org.sparknmt.common.shard;

/**
 * The identity of an input line as one long: the input part (file pair) in the high bits, the
 * 1-based line number in the low 40 bits. Ordering by it is input order.
 */
public final class LineId {
  private static final int LINE_BITS = 40;

  private LineId() {}

  public static long of(int part, long line) {
    if (line < 1 || line >= 1L << LINE_BITS) {
      throw new IllegalArgumentException("line " + line + " is outside 1.." + ((1L << LINE_BITS) - 1));
    }
    return ((long) part << LINE_BITS) | line;
  }

  public static int part(long id) {
    return (int) (id >>> LINE_BITS);
  }

  public static long line(long id) {
    return id & ((1L << LINE_BITS) - 1);
  }
}
