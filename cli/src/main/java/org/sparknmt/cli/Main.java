package org.sparknmt.cli;

import org.sparknmt.base.config.ConfigKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code sparknmt <command> [options]}: the one entry point of the jar, for {@code spark-submit}
 * and for local runs. Exit codes: 0 ok, 2 usage error, 1 failure.
 */
@Command(
    name = "sparknmt",
    mixinStandardHelpOptions = true,
    versionProvider = Versions.Provider.class,
    description = "Neural machine translation on Apache Spark: prepare corpora, train Transformers, translate, evaluate.",
    subcommands = {VersionCommand.class, SmokeCommand.class, PrepareCommand.class, TrainCommand.class,
        AverageCommand.class, ShortlistCommand.class, TranslateCommand.class, EvaluateCommand.class, AttentionCommand.class, PlotPeCommand.class,
        ReportCommand.class, CompareRunsCommand.class, MemoryCommand.class, ConfigCommand.class, EmbeddedHdfsCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  /** Builds the command line with sparknmt's exit codes and error reporting. */
  public static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setResourceBundle(new ConfigKeyHelp(ConfigKeys.all()));
    return ExitCodes.configure(commandLine);
  }

  public static void main(String[] args) {
    int code = commandLine().execute(args);
    String lost = StandardOutput.failure(System.out);
    if (lost != null) {
      System.err.println("sparknmt: " + lost);
      code = code == ExitCodes.OK ? ExitCodes.FAILURE : code;
    }
    // In YARN cluster mode this runs in the ApplicationMaster, which reports success only when main
    // returns: System.exit(0) there fails the application ("Shutdown hook called before final status
    // was reported"). A failure still exits, and the application fails with its code.
    if (code != ExitCodes.OK || !"cluster".equals(System.getProperty("spark.submit.deployMode"))) {
      System.exit(code);
    }
  }
}
