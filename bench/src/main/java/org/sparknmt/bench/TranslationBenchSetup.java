package org.sparknmt.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.translate.TranslationModel;
import picocli.CommandLine.Option;

/**
 * What the translation benchmarks share: a trained run's checkpoint, a text file of sentences, the Spark
 * master, a local work folder and the number of timed runs; the Spark configuration they run under.
 */
final class TranslationBenchSetup {
  @Option(names = "--run", required = true, paramLabel = "RUN", description = "A trained run (folder or URI).")
  String run;

  @Option(names = "--checkpoint", defaultValue = "latest", paramLabel = "CHECKPOINT",
      description = "Checkpoint of the run (default ${DEFAULT-VALUE}).")
  String checkpoint;

  @Option(names = "--input", required = true, paramLabel = "FILE", description = "Sentences to translate, one a line.")
  String input;

  @Option(names = "--master", defaultValue = "local[2]", paramLabel = "MASTER",
      description = "Spark master (default ${DEFAULT-VALUE}).")
  String master;

  @Option(names = "--work", required = true, paramLabel = "DIR", description = "Local folder for the outputs.")
  Path work;

  @Option(names = "--repeats", defaultValue = "3", paramLabel = "N", description = "Timed runs of each setting (default ${DEFAULT-VALUE}).")
  int repeats;

  /** The work folder, created when missing. */
  Path workFolder() throws IOException {
    return Files.createDirectories(work);
  }

  /** No UI and no console progress, so that neither takes time from the measured jobs; scratch under the work folder. */
  SparkConf sparkConf(String appName) {
    return new SparkConf().setAppName(appName).setMaster(master)
        .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
        .setIfMissing("spark.local.dir", work.resolve("spark-local").toString());
  }

  TranslationModel loadModel(JavaSparkContext sc) throws IOException {
    return TranslationModel.load(run, checkpoint, sc.hadoopConfiguration());
  }
}
