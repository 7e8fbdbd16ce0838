package org.sparknmt.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.sparknmt.base.config.ConfigExplanation;
import org.sparknmt.base.config.ConfigKeys;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.translate.TranslateConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sparknmt config [--explain] [--conf FILE] [--set K=V]}: the effective configuration, or every key explained. */
@Command(name = "config", mixinStandardHelpOptions = true,
    description = {"Print the effective configuration (the built-in defaults, then --conf, then --set) as HOCON, "
        + "validated as a job would validate it.",
        "With --explain: every key with its description and default, and with --conf or --set its effective value too."})
public final class ConfigCommand implements Callable<Integer> {
  @Mixin ConfigOptions configOptions;

  @Option(names = "--explain", description = "List every key: description, default and, with --conf or --set, the effective value.")
  boolean explain;

  @Option(names = "--markdown", description = "With --explain: a Markdown table (key, default, meaning), as in docs/configuration.md.")
  boolean markdown;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (markdown && !explain) {
      throw new ParameterException(spec.commandLine(), "--markdown goes with --explain");
    }
    JobConfig config = configOptions.load();
    // each section bound as the jobs bind it, so that a value out of range fails here too, naming its key
    config.bind("model", TransformerConfig.class);
    config.bind("data", PrepareConfig.class);
    config.bind("train", TrainConfig.class);
    config.bind("translate", TranslateConfig.class);
    PrintWriter out = spec.commandLine().getOut();
    if (!explain) {
      out.println(config.render());
    } else if (markdown) {
      out.print(ConfigExplanation.markdown(ConfigKeys.all()));
    } else {
      out.print(ConfigExplanation.text(ConfigKeys.all(),
          configOptions.given() ? Optional.of(config) : Optional.empty()));
    }
    out.flush();
    return 0;
  }
}
