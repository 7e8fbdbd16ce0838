package org.sparknmt.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;

/** A class's main in a JVM of its own with a heap of the test's choosing, this JVM's classpath and options. */
public final class ChildJvm {
  private ChildJvm() {}

  /** Runs {@code main} with {@code -Xmx<heap>} and {@code args}, its output to {@code log}; returns its exit status. */
  public static int run(Class<?> main, String heap, Path log, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!arg.startsWith("-Xmx") && !arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) {
        command.add(arg);
      }
    }
    command.addAll(List.of("-Xmx" + heap, "-cp", BuildDirs.classpath(), main.getName()));
    command.addAll(List.of(args));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return child.waitFor();
  }

  /** The child's Spark: {@code local[2]}, no UI, on the loopback address, its local folder {@code localDir}. */
  public static SparkConf localSpark(String app, String localDir) {
    return new SparkConf()
        .setMaster("local[2]")
        .setAppName(app)
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.local.dir", localDir);
  }

  /** The last 40 lines of {@code log}, for a failure message. */
  public static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
