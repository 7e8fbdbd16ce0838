package org.sparknmt.job;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.sparknmt.testkit.BuildDirs;
import org.sparknmt.testkit.ChildJvm;

/**
 * A real S3-compatible server for the tests of one class: Adobe's S3Mock (a Spring Boot jar from Maven
 * Central, on the test classpath) in a JVM of its own, serving the bucket {@link #BUCKET} over plain http
 * on a free loopback port, stopped after the class. S3Mock answers a PUT with If-None-Match: * on an
 * existing key with 412, as S3 does, and keeps the object; its check is not atomic against a PUT of the
 * same key at the same instant, so the tests take turns rather than race.
 *
 * <p>Register with {@code @RegisterExtension static final S3Server S3 = new S3Server();}. Skips the class
 * where the classpath's hadoop-aws predates conditional create (the spark-3.5 profile's Hadoop 3.3).
 */
public final class S3Server implements BeforeAllCallback, AfterAllCallback {
  public static final String BUCKET = "runs";
  private static final Duration START = Duration.ofSeconds(90);
  private final int port;
  private Process process;
  private Path log;

  /** Picks the server's port now, so that a Spark context registered after it can be given its settings. */
  public S3Server() {
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("no free port for S3Mock", e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Assumptions.assumeTrue(s3aHasConditionalCreate(), "hadoop-aws on the classpath has no conditional create");
    String jar = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.matches(".*s3mock-[^/]*-exec\\.jar")).findFirst()
        .orElseThrow(() -> new IllegalStateException("S3Mock's exec jar is not on the test classpath"));
    Path dir = BuildDirs.fresh("s3-" + context.getRequiredTestClass().getSimpleName());
    log = dir.resolve("s3mock.log");
    process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:TieredStopAtLevel=1", "-jar", jar, "--server.port=0", "--server.address=127.0.0.1",
        "--com.adobe.testing.s3mock.httpPort=" + port,
        "--com.adobe.testing.s3mock.store.root=" + dir.resolve("store"),
        "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + START.toNanos();
    while (!serving()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        afterAll(context);
        throw new IllegalStateException("S3Mock did not start on port " + port + ":\n" + ChildJvm.tail(log));
      }
      Thread.sleep(200);
    }
  }

  private boolean serving() {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint() + "/" + BUCKET).toURL().openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(1000);
      return connection.getResponseCode() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      process = null;
    }
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** {@code s3a://runs/<path>}. */
  public String uri(String path) {
    return "s3a://" + BUCKET + "/" + path;
  }

  /**
   * A client configuration for this server: path-style http, any credentials (S3Mock checks none), one
   * attempt per request so that errors show at once, and a client of its own per configuration.
   */
  public Configuration hadoop() {
    Configuration conf = new Configuration();
    settings().forEach(conf::set);
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  /** The same settings for a Spark context's drivers and executors ({@code spark.hadoop.*}). */
  public Map<String, String> sparkSettings() {
    Map<String, String> spark = new LinkedHashMap<>();
    settings().forEach((key, value) -> spark.put("spark.hadoop." + key, value));
    return spark;
  }

  private Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint());
    settings.put("fs.s3a.endpoint.region", "us-east-1");
    settings.put("fs.s3a.path.style.access", "true");
    settings.put("fs.s3a.connection.ssl.enabled", "false");
    settings.put("fs.s3a.access.key", "sparknmt");
    settings.put("fs.s3a.secret.key", "sparknmt-secret");
    settings.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.attempts.maximum", "1");
    settings.put("fs.s3a.retry.limit", "1");
    settings.put("fs.s3a.retry.interval", "10ms");
    return settings;
  }

  private static boolean s3aHasConditionalCreate() {
    try {
      Class.forName("org.apache.hadoop.fs.s3a.impl.write.WriteObjectFlags");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
