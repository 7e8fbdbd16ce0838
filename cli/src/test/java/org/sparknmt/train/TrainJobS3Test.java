package org.sparknmt.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.checkpoint.CheckpointWritePause;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.scores.Evaluation;
import org.sparknmt.evaluate.EvaluateJob;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.prepare.PrepareJob;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.S3Server;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;
import org.sparknmt.translate.Searches;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;

/**
 * prepare, train, translate and evaluate with the run on s3a:// (a real S3-compatible server) and Spark local-cluster: the data
 * is prepared there, checkpoints are published there by pointers, and a run stopped inside the write of
 * its checkpoint 8 (files complete, pointer not written) and resumed ends bit-identical to one trained to
 * step 12 straight; its model then translates a file on s3a:// into s3a://, which is evaluated there.
 */
@Tag("slow")
class TrainJobS3Test {
  @RegisterExtension static final S3Server S3 = new S3Server();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster("local-cluster[2,1,1024]", S3.sparkSettings());

  private static final TransformerConfig MODEL = TinyRun.MODEL.toBuilder().maxLength(128).build();
  private static String prepared;

  @BeforeAll
  static void prepare() throws IOException {
    Configuration hadoop = SPARK.sc().hadoopConfiguration();
    String corpus = S3.uri("corpus/");
    for (String[] file : new String[][] {{"train.en", "train.en.gz", "240"}, {"train.de", "train.de.gz", "240"},
        {"valid.en", "valid.en.gz", "40"}, {"valid.de", "valid.de.gz", "40"}}) {
      write(new Path(corpus + file[0]), TinyRun.sample(file[1], Integer.parseInt(file[2])), hadoop);
    }
    prepared = S3.uri("prepared");
    PrepareConfig config = new PrepareConfig(400, 0.9995, 200_000, 80, 400, 9.0, 120, 384, 0, 2, 2, 0.0, 17);
    PrepareJob.run(SPARK.sc(), new PrepareJob.Request(new CorpusInput.Aligned(corpus + "train.en", corpus + "train.de"),
        new CorpusInput.Aligned(corpus + "valid.en", corpus + "valid.de"), prepared, config, false, false));
  }

  @Test
  void aRunKilledInsideACheckpointWriteOnS3aResumesBitIdenticallyAndTranslatesAndEvaluatesThere() throws Exception {
    String straight = copyOfPrepared("straight");
    String resumed = copyOfPrepared("resumed");
    new TrainJob(SPARK.sc(), straight, MODEL, train(12), "test").run(TrainJob.Start.RESUME_OR_FRESH);
    killedInsideTheWriteOfStep8(resumed);
    TrainJob.Result second = new TrainJob(SPARK.sc(), resumed, MODEL, train(12), "test").run(TrainJob.Start.RESUME);

    assertEquals(12, second.step());
    TrainJobTest.assertSameParametersAndAdamState(latestModel(straight), latestModel(resumed));
    FileSystem fs = new Path(resumed).getFileSystem(SPARK.sc().hadoopConfiguration());
    Path checkpoint = new Path(resumed, "checkpoints/" + RunLayout.checkpointName(12));
    assertTrue(fs.getFileStatus(checkpoint).isFile(), checkpoint + " is not a pointer");
    List<String> entries = Arrays.stream(fs.listStatus(new Path(resumed, "checkpoints")))
        .map(f -> f.getPath().getName()).toList();
    assertTrue(entries.stream().noneMatch(name -> name.contains(".tmp-")), entries.toString());

    // translate the validation source from s3a:// into s3a://, and evaluate it there
    String hypotheses = S3.uri("out/valid.de");
    TranslateJob.Result translated = TranslateJob.run(SPARK.sc(), TranslationModel.load(resumed, "latest",
        SPARK.sc().hadoopConfiguration()), Searches.search("translate.beam=2", "translate.max_len_a=0",
        "translate.max_len_b=6", "translate.batch_size=8"), S3.uri("corpus/valid.en"), hypotheses, false);
    assertEquals(RunLayout.checkpointName(12), translated.checkpoint());
    assertEquals(40, TinyRun.read(hypotheses, SPARK.sc().hadoopConfiguration()).size());
    Evaluation evaluation = EvaluateJob.run(SPARK.sc(), hypotheses, S3.uri("corpus/valid.de"));
    assertEquals(40, evaluation.lines());
    assertTrue(Double.isFinite(evaluation.bleu().score()) && Double.isFinite(evaluation.chrf().score()),
        evaluation.jsonLine());
  }

  /**
   * Trains towards step 12 and stops the driver's thread inside the write of checkpoint 8, its files complete
   * and its pointer not written: what a driver killed there leaves.
   */
  private static void killedInsideTheWriteOfStep8(String run) throws Exception {
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    Thread driver = new Thread(() -> {
      try {
        new TrainJob(SPARK.sc(), run, MODEL, train(12), "test",
            new CheckpointWritePause(List.of(8L), Duration.ofSeconds(600))).run(TrainJob.Start.RESUME_OR_FRESH);
        ended.complete(null);
      } catch (Throwable t) {
        ended.complete(t);
      }
    });
    driver.start();
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (Arrays.stream(driver.getStackTrace()).noneMatch(f -> f.getClassName().equals(CheckpointWritePause.class.getName()))
        || driver.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline && !ended.isDone(), "the write of step 8 never paused: " + ended.getNow(null));
      Thread.sleep(20);
    }
    driver.interrupt();
    assertTrue(ended.get(60, TimeUnit.SECONDS) instanceof IOException, "the interrupted write did not fail");
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    assertEquals(4, store.latest().orElseThrow().step(), "step 8 was published");
  }

  private static TrainConfig train(long maxSteps) {
    List<String> keys = new ArrayList<>(List.of("train.seed=7", "train.workers=2", "train.averaging_frequency=2",
        "train.max_epochs=10", "train.max_steps=" + maxSteps, "train.lr=3e-3", "train.warmup_steps=10",
        "train.clip_norm=1.0", "train.keep_last=1", "train.valid_bleu_sentences=0", "train.progress_seconds=1",
        "train.checkpoint_retry_seconds=0", "train.checkpoint_every_steps=4"));
    return JobConfig.load(null, keys).bind("train", TrainConfig.class);
  }

  private static String copyOfPrepared(String name) throws IOException {
    String run = S3.uri("runs/" + name);
    Configuration hadoop = SPARK.sc().hadoopConfiguration();
    FileSystem fs = new Path(prepared).getFileSystem(hadoop);
    FileUtil.copy(fs, new Path(prepared, "data"), fs, new Path(run, "data"), false, hadoop);
    return run;
  }

  private static ComputationGraph latestModel(String run) throws IOException {
    CheckpointStore store = new CheckpointStore(run, SPARK.sc().hadoopConfiguration());
    return TrainJobTest.latestModelAt(store, store.latest().orElseThrow());
  }

  private static void write(Path file, List<String> lines, Configuration hadoop) throws IOException {
    try (OutputStream out = file.getFileSystem(hadoop).create(file, true)) {
      out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }
}
