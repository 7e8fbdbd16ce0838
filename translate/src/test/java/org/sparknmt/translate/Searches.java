package org.sparknmt.translate;

import java.util.List;
import org.sparknmt.base.config.JobConfig;

/** Search settings for the translation tests. */
public final class Searches {
  private Searches() {}

  /** Search settings by config key ({@code translate.beam=2}, ...) over the built-in defaults. */
  public static TranslateConfig search(String... keys) {
    return JobConfig.load(null, List.of(keys)).bind("translate", TranslateConfig.class);
  }
}
