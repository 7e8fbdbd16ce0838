package org.sparknmt.prepare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparknmt.base.Seeds;
import org.sparknmt.base.UsageException;
import org.sparknmt.base.files.FolderSwap;
import org.sparknmt.base.files.HadoopFiles;
import org.sparknmt.base.run.JobProgress;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.data.ManifestFormat;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.shard.EncodedPair;
import org.sparknmt.common.shard.LineId;
import org.sparknmt.common.shard.ShardInfo;
import org.sparknmt.common.vocab.BpeEncoder;
import org.sparknmt.common.vocab.BpeLearner;
import org.sparknmt.common.vocab.BpeModel;
import org.sparknmt.common.vocab.WordCounts;
import org.sparknmt.prepare.clean.PairValidator;
import org.sparknmt.prepare.clean.Verdict;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.prepare.input.RawPair;
import org.sparknmt.prepare.shard.Sharder;
import scala.Tuple2;

/**
 * {@code sparknmt prepare}'s Spark job: raw pairs to training shards. Stages: read raw lines and
 * pair them; validate and normalize ({@link PairValidator}); count words of the training side on
 * the executors, keeping the most frequent ({@link WordCounter}), and learn the joint BPE vocabulary
 * from them on the driver ({@link BpeLearner}); encode on
 * the executors; write rejects; sort by length, pack token-budget batches and write shards
 * ({@link Sharder}); write the manifest; rename the staging folder to {@code RUN/data}.
 */
public final class PrepareJob {
  private static final Logger LOG = LoggerFactory.getLogger(PrepareJob.class);
  /** Seed offset of the valid split, so it is independent of the length-sort shuffle. */
  private static final long VALID_SEED = 0x5EED_0001L;

  /**
   * @param valid held-out pairs, or null to hold out {@code config.validFraction()} of {@code train}
   * @param force prepare again and replace an existing {@code RUN/data}, even one from the same inputs and configuration
   */
  public record Request(CorpusInput train, CorpusInput valid, String run, PrepareConfig config,
      boolean allowMisaligned, boolean force) {}

  /** What a run did: {@code upToDate} when {@code RUN/data} already held this exact preparation. */
  public record Result(boolean upToDate, String data, JsonNode manifest) {}

  private PrepareJob() {}

  public static Result run(JavaSparkContext sc, Request request) throws IOException {
    Configuration hadoopConf = sc.hadoopConfiguration();
    RunLayout layout = RunLayout.of(request.run());
    FileSystem fs = layout.data().getFileSystem(hadoopConf);
    List<CorpusInput.Part> trainParts = request.train().parts(hadoopConf);
    List<CorpusInput.Part> validParts = request.valid() == null ? List.of() : request.valid().parts(hadoopConf);
    String fingerprint = fingerprint(request, trainParts, validParts, hadoopConf);

    Path manifestPath = RunLayout.manifest(layout.data());
    if (fs.exists(layout.data())) {
      JsonNode existing = fs.exists(manifestPath)
          ? ManifestFormat.parse(HadoopFiles.read(manifestPath, hadoopConf), manifestPath.toString()) : null;
      if (!request.force() && existing != null && fingerprint.equals(existing.path("fingerprint").asText())) {
        LOG.info("{} is up to date (same inputs and configuration): nothing to do", layout.data());
        return new Result(true, layout.data().toString(), existing);
      }
      if (!request.force()) {
        throw new UsageException(layout.data() + (existing == null ? " exists without a manifest" : " already"
            + " holds a corpus prepared from other inputs or configuration") + "; pass --force to replace it, or choose"
            + " another --run");
      }
    }
    removeStale(fs, layout.run());
    Path staging = layout.dataStaging(UUID.randomUUID().toString());
    fs.mkdirs(staging);
    ObjectNode manifest;
    try {
      manifest = prepare(sc, request, trainParts, validParts, fingerprint, staging);
      HadoopFiles.write(RunLayout.manifest(staging), ManifestFormat.bytes(manifest), hadoopConf);
      FolderSwap.install(fs, staging, layout.data(), layout.dataReplaced(UUID.randomUUID().toString()));
    } catch (IOException | RuntimeException e) {
      fs.delete(staging, true);
      throw e;
    }
    LOG.info("prepared {}: {}", layout.data(), manifest.get("counts"));
    return new Result(false, layout.data().toString(), manifest);
  }

  private static ObjectNode prepare(JavaSparkContext sc, Request request, List<CorpusInput.Part> trainParts,
      List<CorpusInput.Part> validParts, String fingerprint, Path staging) throws IOException {
    PrepareConfig config = request.config();
    Configuration hadoopConf = sc.hadoopConfiguration();
    Map<String, Long> timings = new LinkedHashMap<>();
    List<CorpusInput.Part> parts = new ArrayList<>(trainParts);
    parts.addAll(validParts);
    int trainPartCount = trainParts.size();
    boolean validFiles = !validParts.isEmpty();
    double validFraction = validFiles ? 0 : config.validFraction();
    long validSeed = config.seed() + VALID_SEED;
    PairValidator validator = new PairValidator(config.maxWords(), config.maxChars(), config.maxLengthRatio());

    long t = System.nanoTime();
    sc.setJobGroup("prepare", "sparknmt prepare: read and validate", false);
    JavaRDD<Checked> checked;
    WordCounts wordCounts;
    try (JobProgress progress = progress(sc, "read and validate")) {
      JavaRDD<RawPair> raw = CorpusReader.read(sc, parts, config.partitions());
      JavaRDD<Checked> validated = raw.map(p -> Checked.of(p,
              LineId.part(p.lineId()) >= trainPartCount || Seeds.uniform(validSeed, p.lineId()) < validFraction
                  ? Split.VALID : Split.TRAIN, validator))
          .persist(StorageLevel.MEMORY_AND_DISK());
      Map<Integer, String> misaligned = CorpusReader.checkAligned(validated, parts, request.allowMisaligned());
      checked = misaligned.isEmpty() ? validated
          : validated.map(c -> CorpusReader.rejectMisalignedParts(c, misaligned)).persist(StorageLevel.MEMORY_AND_DISK());
      wordCounts = WordCounter.count(checked
          .filter(c -> c.split() == Split.TRAIN && c.kept() != null)
          .flatMap(c -> words(c.kept().source(), c.kept().target())), config.vocabMaxWords(), config.partitions());
      if (checked != validated) {
        validated.unpersist(false);
      }
    }
    timings.put("read_validate_count", millis(t));

    t = System.nanoTime();
    if (wordCounts.types() == 0) {
      Map<String, Long> reasons = checked.filter(c -> c.kept() == null)
          .map(c -> ((Verdict.Rejected) c.verdict()).reason().label()).countByValue();
      throw new IllegalArgumentException("no training pair survived validation (rejected by reason: " + reasons
          + "); check the inputs " + trainParts);
    }
    BpeModel vocab = BpeLearner.learn(wordCounts, config.vocabSize(), config.characterCoverage());
    byte[] vocabJson = vocab.toJson();
    String vocabHash = BpeModel.sha256(vocabJson);
    HadoopFiles.write(RunLayout.vocabFile(staging), vocabJson, hadoopConf);
    HadoopFiles.write(RunLayout.vocabHashFile(staging),
        (vocabHash + "  bpe.json\n").getBytes(StandardCharsets.US_ASCII), hadoopConf);
    timings.put("learn_vocab", millis(t));
    LOG.info("vocabulary: {} ids ({} characters, {} merges) from the {} most frequent of {} word types, sha256 {}",
        vocab.size(), vocab.alphabet().length, vocab.merges(), wordCounts.words().size(), wordCounts.types(), vocabHash);

    t = System.nanoTime();
    sc.setJobGroup("prepare", "sparknmt prepare: encode", false);
    Broadcast<BpeModel> model = sc.broadcast(vocab);
    int maxSubwords = config.maxSubwords();
    JavaRDD<Prepared> prepared = checked
        .mapPartitions(it -> encode(it, new BpeEncoder(model.value()), maxSubwords))
        .persist(StorageLevel.MEMORY_AND_DISK());
    Tally tally;
    try (JobProgress progress = progress(sc, "encode")) {
      tally = prepared.aggregate(new Tally(), Tally::add, Tally::merge);
    }
    checked.unpersist(false);
    reconcile(tally);
    timings.put("encode", millis(t));

    t = System.nanoTime();
    sc.setJobGroup("prepare", "sparknmt prepare: rejects", false);
    try (JobProgress progress = progress(sc, "rejects")) {
      prepared.filter(p -> !p.kept())
          .mapToPair(p -> new Tuple2<>(p.lineId(), p.reject()))
          .sortByKey(true, 1)
          .map(r -> r._2.toJson(parts))
          .saveAsTextFile(RunLayout.rejects(staging).toString());
    }
    timings.put("rejects", millis(t));

    t = System.nanoTime();
    sc.setJobGroup("prepare", "sparknmt prepare: sort, pack and write shards", false);
    Broadcast<SerializableWritable<Configuration>> hadoop = sc.broadcast(new SerializableWritable<>(hadoopConf));
    Map<Split, List<ShardInfo>> shards = new EnumMap<>(Split.class);
    for (Split split : Split.values()) {
      Tally.Lengths lengths = tally.of(split);
      if (lengths.pairs == 0) {
        continue;
      }
      int count = split == Split.TRAIN ? config.shards()
          : (int) Math.max(1, Math.min(config.shards(), config.shards() * lengths.pairs / Math.max(1, tally.train.pairs)));
      JavaRDD<EncodedPair> pairs = prepared.filter(p -> p.kept() && p.split() == split).map(Prepared::pair);
      List<ShardInfo> written;
      try (JobProgress progress = progress(sc, split.folder() + " shards")) {
        written = Sharder.sorted(Sharder.write(pairs, lengths.batch,
            new Sharder.Packing(config.maxTokens(), config.maxSentences(), config.partitions(), config.seed()), count,
            RunLayout.shards(staging, split.folder()).toString(), hadoop));
      }
      long inShards = written.stream().mapToLong(ShardInfo::pairs).sum();
      if (inShards != lengths.pairs) {
        throw new IllegalStateException(split.folder() + " shards hold " + inShards + " pairs but " + lengths.pairs + " were kept");
      }
      shards.put(split, written);
    }
    prepared.unpersist(false);
    timings.put("shards", millis(t));
    return Manifest.build(fingerprint, trainParts, validParts, config, request.allowMisaligned(), tally, vocab,
        vocabHash, wordCounts, shards, timings);
  }

  /**
   * The progress line of one step of prepare: the records its tasks read (input lines, then the cached
   * pairs), and the share of its tasks done, as no step knows its count beforehand.
   */
  private static JobProgress progress(JavaSparkContext sc, String step) {
    return new JobProgress(sc, "prepare (" + step + ")", "records read", JobProgress.Count.INPUT_RECORDS, -1,
        JobProgress.DEFAULT_SECONDS);
  }

  private static Iterator<String> words(String source, String target) {
    List<String> words = new ArrayList<>(List.of(source.split(" ")));
    words.addAll(List.of(target.split(" ")));
    return words.iterator();
  }

  private static Iterator<Prepared> encode(Iterator<Checked> checked, BpeEncoder encoder, int maxSubwords) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return checked.hasNext();
      }

      @Override
      public Prepared next() {
        return Prepared.of(checked.next(), encoder, maxSubwords);
      }
    };
  }

  /** Read = kept + rejected: a mismatch is a bug in prepare itself, never written as a manifest. */
  private static void reconcile(Tally tally) {
    if (tally.read != tally.kept() + tally.rejectedTotal()) {
      throw new IllegalStateException("counts do not reconcile: read " + tally.read + " != kept " + tally.kept()
          + " + rejected " + tally.rejectedTotal());
    }
  }

  /**
   * A hash of the format, the configuration and each input file's path, length and modification time;
   * for a table, its format, columns and every file under it (a folder's own time need not change
   * when a part file is rewritten).
   */
  private static String fingerprint(Request request, List<CorpusInput.Part> train, List<CorpusInput.Part> valid,
      Configuration conf) throws IOException {
    StringBuilder text = new StringBuilder(ManifestFormat.FORMAT).append('\n').append(request.config())
        .append("\nallow_misaligned=").append(request.allowMisaligned()).append('\n');
    for (List<CorpusInput.Part> parts : List.of(train, valid)) {
      text.append("--\n");
      for (CorpusInput.Part part : parts) {
        if (part.table() != null) {
          text.append(part.table()).append('\n');
          Path table = new Path(part.source());
          RemoteIterator<LocatedFileStatus> files = table.getFileSystem(conf).listFiles(table, true);
          while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            fingerprint(text, file.getPath().toString(), file);
          }
          continue;
        }
        for (String file : part.tsv() ? List.of(part.source()) : List.of(part.source(), part.target())) {
          Path path = new Path(file);
          fingerprint(text, file, path.getFileSystem(conf).getFileStatus(path));
        }
      }
    }
    return BpeModel.sha256(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void fingerprint(StringBuilder text, String file, FileStatus status) {
    text.append(file).append(' ').append(status.getLen()).append(' ').append(status.getModificationTime())
        .append('\n');
  }

  /** Staging folders of runs that were killed: never complete, safe to remove. */
  private static void removeStale(FileSystem fs, Path run) throws IOException {
    if (!fs.exists(run)) {
      return;
    }
    for (FileStatus child : fs.listStatus(run)) {
      String name = child.getPath().getName();
      if (name.startsWith(RunLayout.TMP_PREFIX) || name.startsWith(RunLayout.OLD_PREFIX)) {
        LOG.info("removing {} left by an interrupted prepare", child.getPath());
        fs.delete(child.getPath(), true);
      }
    }
  }

  private static long millis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
