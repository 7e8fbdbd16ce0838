package org.sparknmt.common.data;

import java.util.Locale;

/** The two outputs of prepare: shards to train on and the held-out valid set. */
public enum Split {
  TRAIN,
  VALID;

  /** The folder name under {@code RUN/data/}: {@code train}, {@code valid}. */
  public String folder() {
    return name().toLowerCase(Locale.ROOT);
  }
}
