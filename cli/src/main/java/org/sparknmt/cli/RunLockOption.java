package org.sparknmt.cli;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.sparknmt.base.run.RunLock;
import picocli.CommandLine.Option;

/** {@code --break-lock}, and taking the run's lock for the commands that write to a run. */
public final class RunLockOption {
  @Option(names = "--break-lock",
      description = "Take the run's lock (RUN/.lock) even though another writer holds it: only when that writer no longer runs.")
  boolean breakLock;

  /** The lock of {@code run}, with the Hadoop settings ({@code spark.hadoop.*}) of {@code spark}. */
  public RunLock acquire(String run, String command, SparkConf spark) throws IOException {
    return acquire(run, command, SparkHadoopUtil.get().newConfiguration(spark));
  }

  public RunLock acquire(String run, String command, Configuration hadoop) throws IOException {
    return RunLock.acquire(run, command, breakLock, hadoop);
  }
}
