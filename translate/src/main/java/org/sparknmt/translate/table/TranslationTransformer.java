package org.sparknmt.translate.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.common.table.Columns;
import org.sparknmt.model.decode.DecodingOptions;
import org.sparknmt.model.decode.LengthPenalty;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslationModel;

/**
 * A Spark ML {@link Transformer} that appends the translation of a string column to any DataFrame,
 * with a checkpoint of a sparknmt run: the text path's search ({@code sparknmt translate}) on table
 * columns, for {@code Pipeline}s, Scala and PySpark (through the JVM).
 *
 * <p>Each {@link #transform} loads the checkpoint on the driver (checking its vocabulary against
 * {@code RUN/data}) and broadcasts it once; each task translates its partition in blocks sorted by
 * length and emits the partition's rows in their order with every column kept and the translation
 * appended. A null cell gives null, an empty one an empty string, an over-long one is translated in
 * pieces as the text path does; no row is dropped. n-best lists (an array column), alignments (a
 * string column), samples and prefixes are the text path's, checked as its options are
 * ({@link #hypothesesConfig}); a row's sample is seeded by its input value, so it does not depend on
 * the partitioning. Defaults of the search params are the
 * {@code translate} config section's defaults; {@link #explainParams()} lists them. Saves and loads
 * with its params ({@link DefaultParamsWritable}, {@link #load}); the model itself is referenced by
 * run URI and checkpoint, not copied.
 */
public final class TranslationTransformer extends Transformer implements DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  private final String uid;
  private final Param<String> run;
  private final Param<String> checkpoint;
  private final Param<String> inputCol;
  private final Param<String> outputCol;
  private final IntParam beam;
  private final DoubleParam lengthPenalty;
  private final DoubleParam maxLenA;
  private final IntParam maxLenB;
  private final IntParam batchSize;
  private final StringArrayParam ensemble;
  private final Param<String> prefixCol;
  private final IntParam nbest;
  private final Param<String> alignmentsCol;
  private final IntParam sampleTopK;
  private final DoubleParam sampleTopP;
  private final DoubleParam temperature;
  private final LongParam seed;
  private final Param<String> shortlist;

  public TranslationTransformer() {
    this(Identifiable.randomUID("translation"));
  }

  /** The constructor {@link #load} and {@link #copy} call reflectively. */
  public TranslationTransformer(String uid) {
    // Param's constructor reads the parent's uid, so the params are made here, after it is set.
    this.uid = uid;
    run = new Param<>(this, "run", "run directory URI (its data/ vocabulary and checkpoints/); required");
    checkpoint = new Param<>(this, "checkpoint",
        "checkpoint of the run: latest, best, step-N, N, a folder name under RUN/checkpoints, or a path");
    inputCol = new Param<>(this, "inputCol", "string column to translate; null gives null, empty gives empty");
    outputCol = new Param<>(this, "outputCol", "translation column to append (a string column)");
    beam = new IntParam(this, "beam", "beam width; 1 = greedy search (>= 1)", ParamValidators.gtEq(1));
    lengthPenalty = new DoubleParam(this, "lengthPenalty", "GNMT length penalty alpha; 0 = raw log-probability (>= 0)",
        ParamValidators.gtEq(0));
    maxLenA = new DoubleParam(this, "maxLenA", "outputs stop at maxLenA * |source| + maxLenB subwords (>= 0)",
        ParamValidators.gtEq(0));
    maxLenB = new IntParam(this, "maxLenB", "see maxLenA (>= 0)", ParamValidators.gtEq(0));
    batchSize = new IntParam(this, "batchSize", "sentences searched together, after sorting a block by length (>= 1)",
        ParamValidators.gtEq(1));
    ensemble = new StringArrayParam(this, "ensemble",
        "further checkpoints of the run searched together with checkpoint: an ensemble averaging their log-probabilities");
    prefixCol = new Param<>(this, "prefixCol",
        "string column of target prefixes each translation starts with (null or empty: none); empty name = no prefixes");
    nbest = new IntParam(this, "nbest", "the n best translations (<= beam): outputCol is then an array of structs "
        + "{text string, score double}, best first; 0 = the best text as a string column (>= 0)", ParamValidators.gtEq(0));
    alignmentsCol = new Param<>(this, "alignmentsCol", "string column to append with the best translation's word "
        + "alignment, Pharaoh source-target pairs of 0-based word indices; empty name = none");
    sampleTopK = new IntParam(this, "sampleTopK", "sample each translation from the k most probable tokens of each "
        + "step instead of the beam; 0 = not top-k (>= 0)", ParamValidators.gtEq(0));
    sampleTopP = new DoubleParam(this, "sampleTopP", "sample each translation from the fewest most probable tokens of "
        + "each step whose probabilities sum to at least p instead of the beam; 0 = not top-p (0 <= p <= 1)",
        ParamValidators.inRange(0, 1));
    temperature = new DoubleParam(this, "temperature", "sampling temperature: the logits are divided by it (> 0)",
        ParamValidators.gt(0));
    seed = new LongParam(this, "seed", "sampling seed: a row's sample depends only on it, the row's input value and "
        + "the model");
    shortlist = new Param<>(this, "shortlist", "vocabulary shortlist each batch's search scores only the candidates of: "
        + "a file URI, run = the run's (sparknmt shortlist writes it), empty = every token");
    TranslateConfig defaults = JobConfig.load(null, List.of()).bind("translate", TranslateConfig.class);
    HypothesesConfig hypotheses = JobConfig.load(null, List.of()).bind("translate", HypothesesConfig.class);
    setDefault(checkpoint, "latest");
    setDefault(inputCol, "source");
    setDefault(outputCol, "translation");
    setDefault(beam, defaults.search().beamWidth());
    setDefault(lengthPenalty, defaults.search().lengthPenalty().alpha());
    setDefault(maxLenA, defaults.search().maxLengthA());
    setDefault(maxLenB, defaults.search().maxLengthB());
    setDefault(batchSize, defaults.batchSize());
    setDefault(ensemble, new String[0]);
    setDefault(prefixCol, "");
    setDefault(nbest, 0);
    setDefault(alignmentsCol, "");
    setDefault(sampleTopK, 0);
    setDefault(sampleTopP, 0.0);
    setDefault(temperature, hypotheses.temperature());
    setDefault(seed, hypotheses.seed());
    setDefault(shortlist, defaults.shortlist());
  }

  /** How {@code Pipeline.load} and PySpark's {@code JavaMLReadable} read a saved transformer. */
  public static MLReader<TranslationTransformer> read() {
    return new DefaultParamsReadable<TranslationTransformer>() { }.read();
  }

  public static TranslationTransformer load(String path) {
    return read().load(path);
  }

  @Override
  public String uid() {
    return uid;
  }

  /** Translate with checkpoint {@code spec} (latest, best, step-N, ...) of run {@code runUri}. */
  public TranslationTransformer setCheckpoint(String runUri, String spec) {
    set(run, runUri);
    return (TranslationTransformer) set(checkpoint, spec);
  }

  public TranslationTransformer setInputCol(String value) {
    return (TranslationTransformer) set(inputCol, value);
  }

  public TranslationTransformer setOutputCol(String value) {
    return (TranslationTransformer) set(outputCol, value);
  }

  public TranslationTransformer setBeam(int value) {
    return (TranslationTransformer) set(beam, value);
  }

  public TranslationTransformer setLengthPenalty(double value) {
    return (TranslationTransformer) set(lengthPenalty, value);
  }

  public TranslationTransformer setMaxLenA(double value) {
    return (TranslationTransformer) set(maxLenA, value);
  }

  public TranslationTransformer setMaxLenB(int value) {
    return (TranslationTransformer) set(maxLenB, value);
  }

  public TranslationTransformer setBatchSize(int value) {
    return (TranslationTransformer) set(batchSize, value);
  }

  /** Search {@code checkpoint} together with these checkpoints of the run, an ensemble (none: the one checkpoint). */
  public TranslationTransformer setEnsemble(String... specs) {
    return (TranslationTransformer) set(ensemble, specs);
  }

  /** Start each row's translation with its cell of string column {@code value} (empty: no prefixes). */
  public TranslationTransformer setPrefixCol(String value) {
    return (TranslationTransformer) set(prefixCol, value);
  }

  /** Translate to the {@code n} best, an array column (0: the best text, a string column). */
  public TranslationTransformer setNbest(int n) {
    return (TranslationTransformer) set(nbest, n);
  }

  /** Append the best translation's word alignment as string column {@code value} (empty: none). */
  public TranslationTransformer setAlignmentsCol(String value) {
    return (TranslationTransformer) set(alignmentsCol, value);
  }

  /** Sample from the {@code k} most probable tokens of each step instead of searching (0: not top-k). */
  public TranslationTransformer setSampleTopK(int k) {
    return (TranslationTransformer) set(sampleTopK, k);
  }

  /** Sample from the smallest set of tokens with probability at least {@code p} instead of searching (0: not top-p). */
  public TranslationTransformer setSampleTopP(double p) {
    return (TranslationTransformer) set(sampleTopP, p);
  }

  public TranslationTransformer setTemperature(double value) {
    return (TranslationTransformer) set(temperature, value);
  }

  public TranslationTransformer setSeed(long value) {
    return (TranslationTransformer) set(seed, value);
  }

  /** Search with a vocabulary shortlist: a file URI, {@code run} for the run's, or empty for every token. */
  public TranslationTransformer setShortlist(String value) {
    return (TranslationTransformer) set(shortlist, value);
  }

  /** The search of {@code config} (its partitions aside: a table keeps its own). */
  public TranslationTransformer setSearch(TranslateConfig config) {
    DecodingOptions search = config.search();
    return setBeam(search.beamWidth()).setLengthPenalty(search.lengthPenalty().alpha()).setMaxLenA(search.maxLengthA())
        .setMaxLenB(search.maxLengthB()).setBatchSize(config.batchSize()).setShortlist(config.shortlist());
  }

  // Spark finds params through public no-argument methods returning Param (explainParams, save, load).

  public Param<String> run() {
    return run;
  }

  public Param<String> checkpoint() {
    return checkpoint;
  }

  public Param<String> inputCol() {
    return inputCol;
  }

  public Param<String> outputCol() {
    return outputCol;
  }

  public IntParam beam() {
    return beam;
  }

  public DoubleParam lengthPenalty() {
    return lengthPenalty;
  }

  public DoubleParam maxLenA() {
    return maxLenA;
  }

  public IntParam maxLenB() {
    return maxLenB;
  }

  public IntParam batchSize() {
    return batchSize;
  }

  public StringArrayParam ensemble() {
    return ensemble;
  }

  public Param<String> prefixCol() {
    return prefixCol;
  }

  public IntParam nbest() {
    return nbest;
  }

  public Param<String> alignmentsCol() {
    return alignmentsCol;
  }

  public IntParam sampleTopK() {
    return sampleTopK;
  }

  public DoubleParam sampleTopP() {
    return sampleTopP;
  }

  public DoubleParam temperature() {
    return temperature;
  }

  public LongParam seed() {
    return seed;
  }

  public Param<String> shortlist() {
    return shortlist;
  }

  public String getInputCol() {
    return getOrDefault(inputCol);
  }

  public String getOutputCol() {
    return getOrDefault(outputCol);
  }

  /** The search these params describe, in the text path's terms (the input's partitions are kept). */
  public TranslateConfig searchConfig() {
    DecodingOptions search = TranslateConfig.searchOf(() -> DecodingOptions.beam((Integer) getOrDefault(beam))
        .withLengthPenalty(new LengthPenalty.Gnmt((Double) getOrDefault(lengthPenalty)))
        .withMaxLength((Double) getOrDefault(maxLenA), (Integer) getOrDefault(maxLenB)));
    return TranslateConfig.of(search, (Integer) getOrDefault(batchSize)).withShortlist(getOrDefault(shortlist));
  }

  /**
   * The hypotheses these params ask for, checked as the command line's options are (n-best against the
   * beam, sampling with one hypothesis), or null for the best text of a beam search without prefixes.
   *
   * @throws UsageException naming the params in error
   */
  public HypothesesConfig hypothesesConfig() {
    int k = (Integer) getOrDefault(sampleTopK);
    double p = (Double) getOrDefault(sampleTopP);
    if (k > 0 && p > 0) {
      throw new UsageException("sampleTopK " + k + " and sampleTopP " + p + " are both set: sampling is top-k or top-p,"
          + " set the other to 0");
    }
    int n = (Integer) getOrDefault(nbest);
    boolean alignments = !getOrDefault(alignmentsCol).isEmpty();
    if (n == 0 && !alignments && k == 0 && p == 0 && getOrDefault(prefixCol).isEmpty()) {
      return null;
    }
    String sample = k > 0 ? "topk=" + k : p > 0 ? "topp=" + p : "none";
    HypothesesConfig wanted = HypothesesConfig.stored(Math.max(n, 1), alignments, sample,
        (Double) getOrDefault(temperature), (Long) getOrDefault(seed));
    wanted.checkBeam((Integer) getOrDefault(beam));
    return wanted;
  }

  @Override
  public StructType transformSchema(StructType schema) {
    hypothesesConfig();
    return TranslationColumns.withTranslation(schema, getInputCol(), getOutputCol(), (Integer) getOrDefault(nbest) > 0,
        getOrDefault(alignmentsCol));
  }

  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    StructType schema = transformSchema(dataset.schema(), true);
    int column = TranslationColumns.source(dataset.schema(), getInputCol());
    if (!isDefined(run)) {
      throw new UsageException("run is not set: setCheckpoint(runUri, checkpoint) names the model");
    }
    String prefixes = getOrDefault(prefixCol);
    int prefixColumn = prefixes.isEmpty() ? -1 : Columns.string(dataset.schema(), "prefixCol", prefixes);
    RowTranslation.Columns columns = new RowTranslation.Columns(column, getInputCol(), prefixColumn, prefixes,
        (Integer) getOrDefault(nbest) > 0, !getOrDefault(alignmentsCol).isEmpty());
    SparkSession spark = dataset.sparkSession();
    List<String> checkpoints = new ArrayList<>();
    checkpoints.add(getOrDefault(checkpoint));
    checkpoints.addAll(Arrays.asList(getOrDefault(ensemble)));
    TranslationModel model = load(getOrDefault(run), checkpoints, searchConfig(), spark);
    // Not destroyed here: the result is lazy; Spark's cleaner drops the broadcast once the DataFrame is gone.
    Broadcast<TranslationModel> shared = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(model);
    return dataset.toDF().mapPartitions(new RowTranslation(shared, searchConfig(), hypothesesConfig(), columns),
        Encoders.row(schema));
  }

  @Override
  public TranslationTransformer copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  private static TranslationModel load(String runUri, List<String> specs, TranslateConfig search, SparkSession spark) {
    try {
      return TranslationModel.load(runUri, specs, spark.sparkContext().hadoopConfiguration())
          .withShortlist(search, runUri, spark.sparkContext().hadoopConfiguration());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load checkpoint " + String.join(" + ", specs) + " of run " + runUri + ": "
          + e.getMessage(), e);
    }
  }
}
