package org.sparknmt.cli;

import java.util.Map;
import picocli.CommandLine.Command;

/** {@code sparknmt version}: prints the versions of sparknmt and of the stack it runs on. */
@Command(name = "version", mixinStandardHelpOptions = true,
    description = "Print the versions of sparknmt, Spark, Scala, Hadoop, DL4J, the ND4J backend and BLAS, and Java.")
public final class VersionCommand implements Runnable {
  @Override
  public void run() {
    for (Map.Entry<String, String> entry : Versions.all().entrySet()) {
      System.out.printf("%-13s %s%n", entry.getKey(), entry.getValue());
    }
  }
}
