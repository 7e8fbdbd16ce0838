package org.sparknmt.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sparknmt.base.config.JobConfig;
import picocli.CommandLine.Option;

/** {@code --conf FILE --set key=value ...}: the configuration options every job takes. */
public final class ConfigOptions {
  @Option(names = "--conf", paramLabel = "FILE", description = "HOCON config file (e.g. conf/tiny.conf); overrides the built-in defaults.")
  Path file;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one config key, e.g. --set model.layers=6. Repeatable; later wins.")
  List<String> overrides = new ArrayList<>();

  /** Loads and validates the configuration; an unknown or ill-typed key fails here, naming it. */
  public JobConfig load() {
    return JobConfig.load(file, overrides);
  }

  /** Whether a file or an override was given, i.e. whether the configuration may differ from the defaults. */
  public boolean given() {
    return file != null || !overrides.isEmpty();
  }
}
