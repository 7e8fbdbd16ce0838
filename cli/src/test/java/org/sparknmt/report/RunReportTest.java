package org.sparknmt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparknmt.cli.Main;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.Pictures;

/**
 * The report of a run that has metrics and evaluation results but no data or checkpoints (on the
 * local file system; {@link RunReportEndToEndTest} covers a trained run on HDFS): the curves are
 * drawn, the evaluation table lists the results, and the missing parts are said to be missing.
 */
class RunReportTest {
  @BeforeAll
  static void headless() {
    Png.headless();
  }

  @Test
  void drawsCurvesAndTheEvaluationTable() throws IOException {
    Path run = BuildDirs.fresh("report-metrics");
    StringBuilder train = new StringBuilder();
    for (int step = 1; step <= 40; step++) {
      train.append(String.format("{\"step\":%d,\"epoch\":0,\"loss\":%.4f,\"lr\":%.6f,\"tokens_per_s\":%d}%n",
          step, 8.0 / Math.sqrt(step), 1e-3 * Math.min(step / 10.0, Math.sqrt(10.0 / step)), 500 + step));
    }
    write(run.resolve("metrics/train.jsonl"), train.toString());
    write(run.resolve("metrics/valid.jsonl"), "{\"step\":20,\"epoch\":0,\"loss\":3.1,\"accuracy\":0.3,\"bleu\":4.5}\n"
        + "{\"step\":40,\"epoch\":1,\"loss\":2.6,\"accuracy\":0.4,\"bleu\":9.25}\n");
    write(run.resolve("eval/step-40.json"), "{\"bleu\":27.345,\"chrf\":55.5,\"lines\":500,\"hyp\":\"h.txt\","
        + "\"counts\":[1,2,3,4],\"signature\":{\"bleu\":\"nrefs:1\"}}");

    int code = Main.commandLine().execute("report", "--run", run.toUri().toString());

    assertEquals(0, code);
    String html = Files.readString(run.resolve("report/index.html"), StandardCharsets.UTF_8);
    for (String image : new String[] {"loss.png", "learning-rate.png", "tokens-per-second.png", "bleu.png", "accuracy.png"}) {
      assertTrue(html.contains("src=\"" + image + "\""), image + " not on the page");
      Pictures.png(run.resolve("report/" + image), Charts.WIDTH, Charts.HEIGHT);
    }
    assertTrue(html.contains("<td>step-40.json</td><td>27.35</td><td>55.50</td><td>500</td><td>h.txt</td>"),
        "evaluation row: " + html);
    assertFalse(html.contains("counts"), "arrays are not table columns");
    assertTrue(html.contains("No intact checkpoint"), "missing checkpoints are said");
    assertTrue(html.contains("run 'sparknmt prepare"), "missing data is said with what to do");
  }

  @Test
  void theLossCurveFallsOnThePicture() throws IOException {
    double[] steps = new double[50];
    double[] loss = new double[50];
    for (int i = 0; i < 50; i++) {
      steps[i] = i + 1;
      loss[i] = 8 - i * 0.1;
    }
    BufferedImage image = Png.render(Charts.lines("Loss", "step", "loss",
        java.util.List.of(new Charts.Series("training", steps, loss, false))));
    // the blue line: its leftmost pixels are higher (smaller y) than its rightmost
    int leftY = -1;
    int rightY = -1;
    for (int x = 0; x < image.getWidth(); x++) {
      for (int y = 0; y < image.getHeight(); y++) {
        java.awt.Color c = Pictures.at(image, x, y);
        if (c.getBlue() > 150 && c.getRed() < 80) {
          if (leftY < 0) {
            leftY = y;
          }
          rightY = y;
        }
      }
    }
    assertTrue(leftY >= 0, "no line drawn");
    assertTrue(leftY < rightY - 100, "falling loss drawn falling: left y " + leftY + ", right y " + rightY);
  }

  @Test
  void aBrokenMetricsLineIsNamed() throws IOException {
    Path run = BuildDirs.fresh("report-broken");
    write(run.resolve("metrics/train.jsonl"), "{\"step\":1,\"loss\":2}\n{\"step\":2,\"loss\":\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunMetrics.read(run.toUri().toString(), new Configuration()));
    assertTrue(e.getMessage().contains("train.jsonl line 2"), e.getMessage());
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
