package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.config.JobConfig;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.report.AttentionFigures;
import org.sparknmt.report.Png;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.Pictures;
import org.sparknmt.testkit.SparkCluster;
import org.sparknmt.testkit.TinyRun;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.train.TrainJob;

/**
 * A tiny run prepared and trained on HDFS with Spark local-cluster, then {@code sparknmt report}
 * and {@code sparknmt attention} on it: the page links every picture, the pictures are PNGs, and
 * the attention maps have one file per layer and head.
 */
@Tag("slow")
class RunReportEndToEndTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  private static final TransformerConfig MODEL = TinyRun.MODEL.toBuilder().layers(2).maxLength(128).build();
  private static String run;

  @BeforeAll
  static void trainATinyRun() throws IOException {
    Png.headless();
    run = TinyRun.prepare(SPARK.sc(), HDFS, "report", 200, 30, 400);
    TrainConfig train = JobConfig.load(null, List.of("train.workers=2", "train.averaging_frequency=2",
        "train.max_epochs=2", "train.warmup_steps=10", "train.valid_bleu_sentences=10", "train.progress_seconds=20"))
        .bind("train", TrainConfig.class);
    new TrainJob(SPARK.sc(), run, MODEL, train, "test").run(TrainJob.Start.RESUME_OR_FRESH);
  }

  @Test
  void reportLinksEveryPictureOfTheRun() throws IOException {
    int code = Main.commandLine().execute("report", "--run", run, "--sentences", "2");
    assertEquals(0, code);
    String html = TinyRun.text(run + "/report/index.html", SPARK.sc().hadoopConfiguration());
    for (String section : List.of("Training", "Validation", "Evaluation", "Data", "Attention")) {
      assertTrue(html.contains("<h2>" + section + "</h2>"), section + " missing");
    }
    assertTrue(html.contains("<td>step-"), "checkpoint table");
    assertTrue(html.contains("<td>read</td><td>230</td>") && html.contains("<td>train</td><td>200</td>"),
        "manifest counts (200 train and 30 valid pairs read): " + html);
    assertTrue(html.contains("Validation sentence 2"), "two validation sentences drawn");
    List<String> images = html.lines().filter(l -> l.contains("<img src=\""))
        .map(l -> l.substring(l.indexOf("<img src=\"") + 10, l.indexOf('"', l.indexOf("<img src=\"") + 10))).toList();
    assertEquals(7 + 2 * 3 * MODEL.layers(), images.size(), "7 plots and 3 kinds × 2 layers per sentence: " + images);
    Path local = BuildDirs.fresh("report-e2e");
    for (String image : images) {
      Path copy = local.resolve(image.replace('/', '_'));
      copy(run + "/report/" + image, copy);
      java.awt.image.BufferedImage png = javax.imageio.ImageIO.read(copy.toFile());
      Pictures.png(copy, png.getWidth(), png.getHeight());
    }
  }

  @Test
  void attentionDrawsEveryLayerAndHeadOfTheGivenSentence() throws IOException {
    String out = run + "/attention-test";
    int code = Main.commandLine().execute("attention", "--run", run, "--checkpoint", "best",
        "--src", "Two dogs play in the snow.", "--tgt", "Zwei Hunde spielen im Schnee.", "--out", out);
    assertEquals(0, code);
    FileSystem fs = new org.apache.hadoop.fs.Path(out).getFileSystem(SPARK.sc().hadoopConfiguration());
    for (AttentionFigures.Kind kind : AttentionFigures.Kind.values()) {
      for (int layer = 1; layer <= MODEL.layers(); layer++) {
        assertTrue(fs.exists(new org.apache.hadoop.fs.Path(out, kind.file() + "-layer" + layer + ".png")));
        for (int head = 1; head <= MODEL.heads(); head++) {
          assertTrue(fs.exists(new org.apache.hadoop.fs.Path(out, kind.file() + "-layer" + layer + "-head" + head + ".png")));
        }
      }
    }
  }

  private static void copy(String uri, Path to) throws IOException {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(uri);
    try (InputStream in = path.getFileSystem(SPARK.sc().hadoopConfiguration()).open(path)) {
      Files.write(to, in.readAllBytes());
    }
  }
}
