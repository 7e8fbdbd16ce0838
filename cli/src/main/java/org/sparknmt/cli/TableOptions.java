package org.sparknmt.cli;

import java.util.Locale;
import org.sparknmt.base.UsageException;
import org.sparknmt.common.table.TableFormat;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.OutputFormat;
import org.sparknmt.translate.table.TranslationTransformer;
import picocli.CommandLine.Option;

/** {@code sparknmt translate}'s options for a table column instead of a text file. */
public final class TableOptions {
  private static final String TEXT = "text";

  @Option(names = "--input-format", defaultValue = TEXT, paramLabel = "FORMAT",
      description = "text (one sentence a line; the default) or a table: parquet, orc, json, csv, tsv "
          + "(csv and tsv with a header line).")
  String inputFormat;

  @Option(names = "--column", paramLabel = "NAME", description = "With a table input: the string column to translate.")
  String column;

  @Option(names = "--output-format", paramLabel = "FORMAT",
      description = "With a table input: the output table's format (parquet, orc, json, csv, tsv); "
          + "default: --input-format. With a text input: text, fairseq or json (translate.output_format).")
  String outputFormat;

  @Option(names = "--output-column", defaultValue = "translation", paramLabel = "NAME",
      description = "With a table input: the column the translation goes to, after every column of the input. "
          + "Default: ${DEFAULT-VALUE}.")
  String outputColumn;

  @Option(names = "--prefix-column", paramLabel = "NAME",
      description = "With a table input: the string column of target prefixes each translation starts with (null or "
          + "empty: none), as --prefix FILE gives them to a text input.")
  String prefixColumn;

  @Option(names = "--alignments-column", defaultValue = "alignments", paramLabel = "NAME",
      description = "With a table input and --alignments: the column the best translation's word alignment goes to. "
          + "Default: ${DEFAULT-VALUE}.")
  String alignmentsColumn;

  /**
   * Whether the input is a table.
   *
   * @throws IllegalArgumentException when a table option is given with a text input, or a table lacks --column
   */
  public boolean table() {
    if (inputFormat.equalsIgnoreCase(TEXT)) {
      if (column != null || prefixColumn != null) {
        throw new UsageException((column != null ? "--column" : "--prefix-column")
            + " is for a table input: give --input-format parquet|orc|json|csv|tsv");
      }
      hypothesesFormat();
      return false;
    }
    inputFormat();
    if (column == null) {
      throw new UsageException("--input-format " + inputFormat
          + " needs --column NAME (the column to translate)");
    }
    return true;
  }

  public TableFormat inputFormat() {
    return TableFormat.of("--input-format", inputFormat);
  }

  public TableFormat outputFormat() {
    return outputFormat == null ? inputFormat() : TableFormat.of("--output-format", outputFormat);
  }

  /**
   * With a text input, the {@code --output-format} of its translations (text, fairseq, json), or null when not
   * given (the {@code translate.output_format} key decides).
   */
  public OutputFormat hypothesesFormat() {
    if (outputFormat == null) {
      return null;
    }
    try {
      return OutputFormat.valueOf(outputFormat.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--output-format " + outputFormat + ": a text input's translations are written as "
          + "text, fairseq or json (a table's formats need --input-format parquet|orc|json|csv|tsv)");
    }
  }

  public String column() {
    return column;
  }

  public String outputColumn() {
    return outputColumn;
  }

  /**
   * The transformer's params for the hypotheses a table's rows get: the n best as an array column (n > 1), the
   * alignment in {@code --alignments-column}, samples, and prefixes from {@code --prefix-column}.
   *
   * @throws UsageException when a prefix file is given: a table's prefixes come from a column
   */
  public TranslationTransformer withHypotheses(TranslationTransformer translation, HypothesesConfig wanted) {
    if (wanted.prefixed()) {
      throw new UsageException("--prefix (translate.prefix) " + wanted.prefix() + " is a file for a text input: "
          + "a table's prefixes come from a column, --prefix-column NAME");
    }
    translation.setNbest(wanted.nbest() > 1 ? wanted.nbest() : 0).setTemperature(wanted.temperature())
        .setSeed(wanted.seed());
    if (wanted.alignments()) {
      translation.setAlignmentsCol(alignmentsColumn);
    }
    translation.setSampleTopK(wanted.sampleTopK()).setSampleTopP(wanted.sampleTopP());
    if (prefixColumn != null) {
      translation.setPrefixCol(prefixColumn);
    }
    translation.hypothesesConfig();
    return translation;
  }
}
