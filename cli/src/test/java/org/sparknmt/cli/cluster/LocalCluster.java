package org.sparknmt.cli.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.sparknmt.testkit.BuildDirs;

/**
 * A cluster of {@code scripts/cluster} in a folder of its own, on free ports: what a test needs to
 * start it, submit to it, and check that {@code down} left nothing behind.
 */
final class LocalCluster {
  static final List<String> DAEMONS = List.of("namenode", "datanode", "master", "worker-1", "worker-2");
  private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(5);
  private static final String FAULT_SCRIPT = "cli/src/test/scripts/cluster-fault";

  final Path root;
  final Path dir;
  final int masterPort;
  final int masterUiPort;
  final int namenodePort;
  final int namenodeHttpPort;
  private final Map<String, String> env = new HashMap<>();

  /** A cluster under a fresh build folder named {@code name}, its ports free when this returns. */
  LocalCluster(String name) throws IOException {
    root = projectRoot();
    dir = BuildDirs.fresh(name);
    List<ServerSocket> held = new ArrayList<>();
    int[] ports = new int[7];
    int workerUiPort;
    try {
      workerUiPort = holdPortPair(held);
      for (int i = 0; i < ports.length; i++) {
        ports[i] = hold(0, held);
      }
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
    masterPort = ports[0];
    masterUiPort = ports[1];
    namenodePort = ports[2];
    namenodeHttpPort = ports[3];
    env.put("SPARKNMT_CLUSTER_DIR", dir.toString());
    env.put("SPARKNMT_MASTER_PORT", Integer.toString(masterPort));
    env.put("SPARKNMT_MASTER_UI_PORT", Integer.toString(masterUiPort));
    env.put("SPARKNMT_WORKER_UI_PORT", Integer.toString(workerUiPort));
    env.put("SPARKNMT_NAMENODE_PORT", Integer.toString(namenodePort));
    env.put("SPARKNMT_NAMENODE_HTTP_PORT", Integer.toString(namenodeHttpPort));
    env.put("SPARKNMT_DATANODE_PORT", Integer.toString(ports[4]));
    env.put("SPARKNMT_DATANODE_HTTP_PORT", Integer.toString(ports[5]));
    env.put("SPARKNMT_DATANODE_IPC_PORT", Integer.toString(ports[6]));
    env.put("SPARKNMT_WORKER_MEMORY", "1g");
    env.put("SPARKNMT_CLUSTER_TIMEOUT", "180");
  }

  /** The SPARKNMT_* variables that name this cluster's folder and ports, for a script that starts it itself. */
  Map<String, String> environment() {
    return Map.copyOf(env);
  }

  String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  String hdfsUri(String path) {
    return "hdfs://127.0.0.1:" + namenodePort + path;
  }

  /** {@code scripts/cluster COMMAND} with this cluster's settings plus {@code extra}. */
  ScriptRun cluster(String command, Map<String, String> extra) throws IOException, InterruptedException {
    Map<String, String> all = new HashMap<>(env);
    all.putAll(extra);
    return ScriptRun.run(root, dir.resolve("test-logs"), all, SCRIPT_TIMEOUT, "scripts/cluster", command);
  }

  ScriptRun cluster(String command) throws IOException, InterruptedException {
    return cluster(command, Map.of());
  }

  /**
   * Fault injection: {@code cli/src/test/scripts/cluster-fault stop|start DAEMON} stops one daemon of this
   * cluster by its PID file, or starts it again as {@code up} did and waits until it serves.
   */
  ScriptRun daemon(String action, String daemon) throws IOException, InterruptedException {
    return ScriptRun.run(root, dir.resolve("test-logs"), env, SCRIPT_TIMEOUT, FAULT_SCRIPT, action, daemon);
  }

  /** Whether the process in {@code daemon}'s PID file runs. */
  boolean running(String daemon) {
    return pid(daemon).flatMap(ProcessHandle::of).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * What every {@code scripts/sparknmt} submission to this cluster runs with: a small driver, ND4J's plain
   * x86-64 build, and SPARKNMT_CLUSTER_DIR, where the launcher finds this cluster's authentication secret.
   */
  Map<String, String> launcherEnvironment() {
    return Map.of("SPARKNMT_DRIVER_MEMORY", "1g", "SPARKNMT_ND4J_EXTENSION", "", "SPARKNMT_CLUSTER_DIR", dir.toString());
  }

  /** {@code scripts/sparknmt ARGS} with {@code env}, a small driver and ND4J's plain x86-64 build. */
  ScriptRun sparknmt(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("scripts/sparknmt"));
    command.addAll(List.of(args));
    Map<String, String> launcher = new HashMap<>(launcherEnvironment());
    launcher.putAll(env);
    return ScriptRun.run(root, dir.resolve("test-logs"), launcher, SCRIPT_TIMEOUT, command.toArray(String[]::new));
  }

  /** The PID recorded for {@code daemon}, if its PID file exists. */
  Optional<Long> pid(String daemon) {
    Path file = dir.resolve("pids").resolve(daemon + ".pid");
    try {
      return Files.exists(file) ? Optional.of(Long.parseLong(Files.readString(file).trim())) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every process whose command line names this cluster's folder: daemons and the executors they launched. */
  List<String> processesOfThisCluster() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid())
        .flatMap(p -> p.info().commandLine().filter(line -> line.contains(dir.toString())).map(line -> p.pid() + " " + line).stream())
        .toList();
  }

  /**
   * Deletes the cluster's folder, once stopped: the executors' copies of the fat jar alone take
   * ~500 MB. A failed test keeps it, logs included, for diagnosis.
   */
  void deleteFolder() throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /**
   * Deletes the executors' copies of application jars under {@code work/} (~250 MB per executor and
   * application: a class of cluster tests leaves gigabytes), keeping their logs for diagnosis.
   */
  void deleteApplicationJars() throws IOException {
    Path work = dir.resolve("work");
    if (!Files.isDirectory(work)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(work)) {
      for (Path jar : paths.filter(p -> p.getFileName().toString().endsWith(".jar")).toList()) {
        Files.delete(jar);
      }
    }
  }

  /** The folder holding {@code scripts/cluster}, searched upwards from the working directory. */
  static Path projectRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isExecutable(p.resolve("scripts/cluster"))) {
        return p;
      }
    }
    throw new IllegalStateException("no scripts/cluster above " + Path.of("").toAbsolutePath());
  }

  /** Binds {@code port} (0: any free one) on 127.0.0.1 and keeps it in {@code held}, so no later pick repeats it. */
  private static int hold(int port, List<ServerSocket> held) throws IOException {
    ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
    held.add(socket);
    return socket.getLocalPort();
  }

  /** A free port whose successor is free too (workers 1 and 2 serve their UIs on PORT and PORT + 1). */
  private static int holdPortPair(List<ServerSocket> held) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int first = hold(0, held);
      try {
        hold(first + 1, held);
        return first;
      } catch (IOException taken) {
        // the successor is in use (or past 65535): try another pair, keeping this one held so it is not picked again
      }
    }
    throw new IOException("no two consecutive free ports on 127.0.0.1 in 50 attempts");
  }
}
