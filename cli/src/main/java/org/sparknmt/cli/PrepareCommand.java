package org.sparknmt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.base.run.RunLock;
import org.sparknmt.common.data.ManifestField;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.prepare.PrepareJob;
import org.sparknmt.prepare.input.CorpusInput;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sparknmt prepare}: raw sentence pairs on any Hadoop URI to validated, BPE-encoded,
 * length-bucketed training shards under {@code RUN/data/} (see {@link PrepareJob}).
 */
@Command(name = "prepare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Validate, normalize, learn a joint BPE vocabulary, encode and shard a parallel corpus on Spark.",
        "Writes RUN/data/{manifest.json, vocab/, rejects/, train/, valid/}; re-running with the same inputs and config is a no-op."})
public final class PrepareCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PrepareCommand.class);

  @ArgGroup(exclusive = true, multiplicity = "1", heading = "Training pairs (any Hadoop URI; plain, .gz or .bz2; a file or a folder of parts; or a table):%n")
  Input train;

  @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "Held-out valid pairs (default: --valid-fraction of the training pairs):%n")
  ValidInput valid;

  @Option(names = "--run", required = true, paramLabel = "RUN", description = "Run directory (any Hadoop URI); output goes to RUN/data.")
  String run;

  @Option(names = "--valid-fraction", paramLabel = "F", descriptionKey = "data.valid_fraction")
  Double validFraction;

  @Option(names = "--allow-misaligned", description = "When a pair of files has different line counts, reject all its lines (reason misaligned) instead of failing: pairing by line number would mispair every line after a missing one.")
  boolean allowMisaligned;

  @Option(names = "--force", description = "Prepare again and replace an existing RUN/data.")
  boolean force;

  @Mixin TableColumns tableColumns;

  @Mixin ConfigOptions configOptions;
  @Mixin SparkOptions spark;
  @Mixin RunLockOption runLock;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** One of the three input forms. */
  static final class Input {
    @ArgGroup(exclusive = false) AlignedFiles aligned;
    @Option(names = "--tsv", paramLabel = "FILE", description = "source<TAB>target lines.") String tsv;
    @Option(names = "--table", paramLabel = "URI",
        description = "A table whose --src-column and --tgt-column hold the pairs.") String table;

    CorpusInput corpus(TableColumns columns) {
      return PrepareCommand.corpus(columns, "--table", table, tsv,
          () -> new CorpusInput.Aligned(aligned.src, aligned.tgt));
    }
  }

  /** The one input form given to a group: a table, a TSV file, or else the aligned files. */
  private static CorpusInput corpus(TableColumns columns, String tableOption, String table, String tsv,
      Supplier<CorpusInput> aligned) {
    return table != null ? columns.table(tableOption, table) : tsv != null ? new CorpusInput.Tsv(tsv) : aligned.get();
  }

  /** The format and columns of --table and --valid-table, named as evaluate's --table-format and --*-column. */
  static final class TableColumns {
    @Option(names = "--table-format", defaultValue = "parquet", paramLabel = "FORMAT",
        description = "With --table or --valid-table: parquet, orc, json, csv or tsv (csv and tsv with a header line). "
            + "Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--src-column", paramLabel = "NAME",
        description = "With --table or --valid-table: the source sentences' string column.")
    String src;

    @Option(names = "--tgt-column", paramLabel = "NAME",
        description = "With --table or --valid-table: the target sentences' string column.")
    String tgt;

    CorpusInput table(String option, String uri) {
      if (src == null || tgt == null) {
        throw new UsageException(option + " " + uri + " needs --src-column NAME and --tgt-column NAME");
      }
      return new CorpusInput.Table(uri, TableFormat.of("--table-format", format), src, tgt);
    }

    /** Columns without a table would be silently ignored: refuse them instead. */
    void checkUsed(boolean table) {
      if (!table && (src != null || tgt != null)) {
        throw new UsageException((src != null ? "--src-column" : "--tgt-column")
            + " is for a table input: give --table URI (or --valid-table URI)");
      }
    }
  }

  static final class AlignedFiles {
    @Option(names = "--src", required = true, paramLabel = "FILE", description = "Source sentences, one a line.") String src;
    @Option(names = "--tgt", required = true, paramLabel = "FILE", description = "Target sentences, aligned line by line.") String tgt;
  }

  static final class ValidInput {
    @ArgGroup(exclusive = false) ValidFiles aligned;
    @Option(names = "--valid-tsv", paramLabel = "FILE", description = "Valid pairs as TSV.") String tsv;
    @Option(names = "--valid-table", paramLabel = "URI",
        description = "Valid pairs from a table, with the same --table-format, --src-column and --tgt-column.") String table;

    CorpusInput corpus(TableColumns columns) {
      return PrepareCommand.corpus(columns, "--valid-table", table, tsv,
          () -> new CorpusInput.Aligned(aligned.src, aligned.tgt));
    }
  }

  static final class ValidFiles {
    @Option(names = "--valid-src", required = true, paramLabel = "FILE", description = "Valid source sentences.") String src;
    @Option(names = "--valid-tgt", required = true, paramLabel = "FILE", description = "Valid target sentences.") String tgt;
  }

  @Override
  public Integer call() throws Exception {
    JobConfig config = configOptions.load();
    PrepareConfig data = config.bind("data", PrepareConfig.class);
    if (validFraction != null) {
      if (valid != null) {
        throw new UsageException("--valid-fraction and valid files exclude each other; give one");
      }
      data = data.withValidFraction(validFraction);
    }
    tableColumns.checkUsed(train.table != null || valid != null && valid.table != null);
    PrepareJob.Request request = new PrepareJob.Request(train.corpus(tableColumns),
        valid == null ? null : valid.corpus(tableColumns), run, data, allowMisaligned, force);
    LOG.info("prepare {} -> {}/data with {}", request.train(), run, data);
    long start = System.nanoTime();
    SparkConf sparkConf = spark.sparkConf("sparknmt prepare");
    try (RunLock lock = runLock.acquire(run, "prepare", sparkConf); JavaSparkContext sc = new JavaSparkContext(sparkConf)) {
      PrepareJob.Result result = PrepareJob.run(sc, request);
      double seconds = (System.nanoTime() - start) / 1e9;
      spec.commandLine().getOut().println(summary(result, seconds));
      spec.commandLine().getOut().flush();
    }
    return 0;
  }

  static String summary(PrepareJob.Result result, double seconds) {
    JsonNode m = result.manifest();
    JsonNode counts = ManifestField.COUNTS.of(m);
    JsonNode vocab = ManifestField.VOCAB.of(m);
    if (result.upToDate()) {
      return "prepare: " + result.data() + " is up to date (same inputs and config): "
          + ManifestField.KEPT.of(counts).asLong() + " pairs, vocab sha256 " + ManifestField.SHA256.of(vocab).asText();
    }
    StringBuilder reasons = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = ManifestField.REJECTED_BY_REASON.of(counts).fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().asLong() > 0) {
        reasons.append(reasons.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue().asLong());
      }
    }
    long read = ManifestField.READ.of(counts).asLong();
    JsonNode train = m.path(Split.TRAIN.folder());
    return String.format(
        "prepare: read %d pairs, kept %d (train %d, valid %d), rejected %d%s%n"
            + "prepare: vocab %d ids, sha256 %s%n"
            + "prepare: train %d batches in %d shards, %d tokens, padding %.1f%%%n"
            + "prepare: wrote %s in %.1f s (%.0f pairs/s)",
        read, ManifestField.KEPT.of(counts).asLong(), counts.path(Split.TRAIN.folder()).asLong(),
        counts.path(Split.VALID.folder()).asLong(), ManifestField.REJECTED.of(counts).asLong(),
        reasons.length() == 0 ? "" : " (" + reasons + ")",
        ManifestField.SIZE.of(vocab).asLong(), ManifestField.SHA256.of(vocab).asText(),
        ManifestField.BATCHES.of(train).asLong(), ManifestField.SHARDS.of(train).size(),
        ManifestField.REAL_TOKENS.of(train).asLong(), 100 * ManifestField.PADDING_RATIO.of(train).asDouble(),
        result.data(), seconds, read / seconds);
  }

}
