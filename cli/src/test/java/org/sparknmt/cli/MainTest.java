package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.sparknmt.testkit.BuildDirs;
import picocli.CommandLine;

/** The command line's contract: help, exit codes, and the commands of this foundation. */
class MainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void helpListsCommandsAndExitsZero() {
    assertEquals(ExitCodes.OK, run("--help"));
    assertTrue(out.toString().contains("version"), out.toString());
    assertTrue(out.toString().contains("smoke"), out.toString());
  }

  @Test
  void unknownCommandIsAUsageError() {
    assertEquals(ExitCodes.USAGE, run("bogus"));
    assertTrue(err.toString().contains("bogus"), err.toString());
  }

  @Test
  void missingCommandIsAUsageError() {
    assertEquals(ExitCodes.USAGE, run());
  }

  @Test
  void unknownOptionIsAUsageError() {
    assertEquals(ExitCodes.USAGE, run("smoke", "--no-such-option"));
  }

  @Test
  void invalidOptionValueIsAUsageError() {
    assertEquals(ExitCodes.USAGE, run("smoke", "--lines", "0", "--master", "local[1]"));
    assertTrue(err.toString().contains("--lines"), err.toString());
  }

  @Test
  void versionNamesTheStack() {
    // the versions the classes on the classpath report, against those the build's Spark profile names
    assertEquals(System.getProperty("sparknmt.expected.spark"), Versions.all().get("Spark"));
    assertEquals(System.getProperty("sparknmt.expected.scala"), Versions.all().get("Scala"));
    assertEquals(System.getProperty("sparknmt.expected.hadoop"), Versions.all().get("Hadoop"));
    assertTrue(Versions.all().get("Built for").startsWith("Spark " + System.getProperty("sparknmt.expected.line") + " (Scala "
        + Versions.all().get("Scala").substring(0, 4) + ","), Versions.all().toString());
    assertEquals("1.0.0-M2", Versions.all().get("DL4J"));
    assertTrue(Versions.all().get("ND4J backend").startsWith("CpuBackend"), Versions.all().toString());
  }

  @Test
  void smokeRunsInLocalModeAgainstAFileUri() {
    String target = BuildDirs.fresh("main-smoke").resolve("out").toUri().toString();
    assertEquals(ExitCodes.OK, run("smoke", "--master", "local[2]", "--out", target, "--lines", "50"), err.toString());
  }
}
