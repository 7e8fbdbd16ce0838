package org.sparknmt.prepare.shard;

import java.io.Serializable;

/**
 * The order of the length sort: by padded length, then by a seeded hash of the line id, so pairs
 * of one length are shuffled reproducibly and no two keys are equal (the order never depends on
 * which shuffle block arrives first).
 */
record SortKey(int length, long order) implements Comparable<SortKey>, Serializable {
  @Override
  public int compareTo(SortKey o) {
    int c = Integer.compare(length, o.length);
    return c != 0 ? c : Long.compare(order, o.order);
  }
}
