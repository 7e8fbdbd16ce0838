package org.sparknmt.cli.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One run of a project script ({@code scripts/...}): its exit code and its stdout and stderr together. */
record ScriptRun(List<String> command, int exitCode, String output) {

  /**
   * Runs {@code command} in the project root with {@code env} added to this JVM's environment. Output
   * goes to a file under {@code logDir}, never a pipe: daemons the script leaves running must not hold
   * this JVM's streams. A run past {@code timeout} is killed with everything it started and fails.
   */
  static ScriptRun run(Path root, Path logDir, Map<String, String> env, Duration timeout, String... command)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(Files.createDirectories(logDir), Path.of(command[0]).getFileName() + "-", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout + "; output:\n" + Files.readString(log));
    }
    return new ScriptRun(List.of(command), process.exitValue(), Files.readString(log));
  }

  /** Fails with the output when the script did not exit 0. */
  ScriptRun assertSucceeded() {
    if (exitCode != 0) {
      throw new AssertionError(String.join(" ", command) + " exited " + exitCode + "; output:\n" + output);
    }
    return this;
  }
}
