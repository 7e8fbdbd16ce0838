package org.sparknmt.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.NumberedLines;
import org.sparknmt.translate.OutputFormat;
import org.sparknmt.translate.SentenceTranslator;
import org.sparknmt.translate.StreamTranslation;
import org.sparknmt.translate.TargetPrefixes;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;
import org.sparknmt.translate.table.TableTranslation;
import org.sparknmt.translate.table.TranslationTransformer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparknmt translate}: a corpus on any Hadoop URI to its translation, on Spark; or, with
 * {@code --input -} or no {@code --input}, standard input to standard output in this JVM.
 */
@Command(name = "translate", mixinStandardHelpOptions = true,
    description = {"Translate one sentence a line with a checkpoint of a run: beam search in length-sorted batches on Spark.",
        "Output: one file with exactly the input's lines, in order (an empty line gives an empty line).",
        "Without --input (or with --input -): read standard input, write standard output, no Spark.",
        "With --input-format parquet|orc|json|csv|tsv --column NAME: a table to a table with every input column and the translation."})
public final class TranslateCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(TranslateCommand.class);

  @Mixin SparkOptions spark;
  @Mixin SearchOptions search;
  @Mixin TableOptions table;
  @Mixin HypothesesOptions hypotheses;

  @Option(names = "--run", required = true, paramLabel = "URI", description = "Run directory: its data/ (vocabulary) and checkpoints/.")
  String run;

  @Mixin CheckpointOption checkpoint;

  @Option(names = "--input", defaultValue = "-", paramLabel = "URI",
      description = "Source text, one sentence a line: a file (plain or .gz), a folder of parts or a glob, on any Hadoop FS; - = standard input.")
  String input;

  @Option(names = "--output", paramLabel = "URI", description = "The translation file (compressed when it ends in .gz); required with --input URI.")
  String output;

  @Option(names = "--force", description = "Replace an existing --output file.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    TranslateConfig config = search.config();
    LOG.info("translate: --run {} --checkpoint {}, {}", run, checkpoint.names(), config);
    if (table.table()) {
      // a table stores hypotheses in columns: fairseq only lets the text-output check pass n-best lists and alignments
      return translateTable(config, hypotheses.config(search.configOptions(), OutputFormat.FAIRSEQ));
    }
    HypothesesConfig wanted = hypotheses.config(search.configOptions(), table.hypothesesFormat());
    wanted.checkBeam(config.search().beamWidth());
    if (input.equals("-")) {
      if (output != null && !output.equals("-")) {
        throw new UsageException("--output " + output + ": standard input is translated to standard output; "
            + "give --input URI to write a file");
      }
      TargetPrefixes prefixes = wanted.prefixed() ? TargetPrefixes.open(wanted.prefix(), new Configuration()) : null;
      TranslationModel model = TranslationModel.load(run, checkpoint.names(), new Configuration())
          .withShortlist(config, run, new Configuration());
      SentenceTranslator translator = model.sentenceTranslator(config);
      StreamTranslation.translate(wanted.plain() ? translator::translate : new NumberedLines(translator, wanted, prefixes),
          System.in, StandardOutput.open());
      if (prefixes != null) {
        prefixes.end("standard input");
      }
      return ExitCodes.OK;
    }
    if (output == null || output.equals("-")) {
      throw new UsageException("--input " + input + " needs --output URI (the translation file)");
    }
    try (JavaSparkContext sc = new JavaSparkContext(spark.sparkConf("sparknmt translate " + input))) {
      TranslationModel model = TranslationModel.load(run, checkpoint.names(), sc.hadoopConfiguration())
          .withShortlist(config, run, sc.hadoopConfiguration());
      TranslateJob.Result result = TranslateJob.run(sc, model, config, wanted, input, output, force);
      System.out.printf("translate: %d lines with %s (step %d) -> %s in %.1f s: %.1f sentences/s, %.1f target tokens/s%n",
          result.lines(), model.checkpoint(), model.step(), output, result.seconds(), result.sentencesPerSecond(),
          result.tokensPerSecond());
    }
    return ExitCodes.OK;
  }

  private Integer translateTable(TranslateConfig config, HypothesesConfig wanted) {
    if (input.equals("-") || output == null || output.equals("-")) {
      throw new UsageException("--input-format " + table.inputFormat() + " needs --input URI and --output URI (tables)");
    }
    TableFormat outputFormat = table.outputFormat();
    TranslationTransformer translation = new TranslationTransformer().setCheckpoint(run, checkpoint.name())
        .setInputCol(table.column()).setOutputCol(table.outputColumn()).setSearch(config);
    table.withHypotheses(translation, wanted);
    // stop() rather than try-with-resources: Spark 4's SparkSession.close() declares IOException, 3.5's does not.
    SparkSession session = SparkSession.builder().config(spark.sparkConf("sparknmt translate " + input)).getOrCreate();
    try {
      TableTranslation.Result result = TableTranslation.run(session, translation, input, table.inputFormat(), output,
          outputFormat, force);
      System.out.printf("translate: %d rows, column %s with checkpoint %s -> %s (%s, column %s) in %.1f s: %.1f rows/s%n",
          result.rows(), table.column(), checkpoint.name(), output, outputFormat, table.outputColumn(), result.seconds(),
          result.rowsPerSecond());
    } finally {
      session.stop();
    }
    return ExitCodes.OK;
  }
}
