package org.sparknmt.testkit;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real S3-compatible server for the tests of one class, in a JVM of its own, serving the bucket
 * {@link #BUCKET} over plain http on a free loopback port, stopped after the class:
 *
 * <ul>
 *   <li>{@code new S3Server()}: Adobe's S3Mock (a Spring Boot jar from Maven Central, on the test
 *       classpath). It answers a PUT with If-None-Match: * on an existing key with 412, as S3 does, and keeps
 *       the object; its check is not atomic against a PUT of the same key at the same instant, so the tests
 *       take turns rather than race. It checks no credentials.
 *   <li>{@link #checkingCredentials()}: S3Proxy (its jar with dependencies, copied by the build to
 *       {@code target/s3proxy}, off the test classpath: it bundles libraries Spark and Hadoop also use) over a
 *       folder of the file system, refusing any request not signed with this server's access and secret key,
 *       as S3 does.
 * </ul>
 *
 * <p>Register with {@code @RegisterExtension static final S3Server S3 = new S3Server();}. Skips the class
 * where the classpath's hadoop-aws predates conditional create (the spark-3.5 profile's Hadoop 3.3).
 */
public final class S3Server implements BeforeAllCallback, AfterAllCallback {
  public static final String BUCKET = "runs";
  public static final String ACCESS_KEY = "sparknmt";
  public static final String SECRET_KEY = "sparknmt-secret";
  private static final Duration START = Duration.ofSeconds(90);
  private final boolean proxy;
  private final int port;
  private Process process;
  private Path log;

  /** S3Mock. Picks the server's port now, so that a Spark context registered after it can be given its settings. */
  public S3Server() {
    this(false);
  }

  /** S3Proxy, accepting only requests signed with {@link #ACCESS_KEY} and {@link #SECRET_KEY}. */
  public static S3Server checkingCredentials() {
    return new S3Server(true);
  }

  private S3Server(boolean proxy) {
    this.proxy = proxy;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("no free port for S3Mock", e);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Assumptions.assumeTrue(s3aHasConditionalCreate(), "hadoop-aws on the classpath has no conditional create");
    Path dir = BuildDirs.fresh("s3-" + context.getRequiredTestClass().getSimpleName());
    log = dir.resolve("server.log");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar"));
    command.addAll(proxy ? s3proxy(dir) : s3mock(dir));
    process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + START.toNanos();
    while (!serving()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        afterAll(context);
        throw new IllegalStateException((proxy ? "S3Proxy" : "S3Mock") + " did not start on port " + port + ":\n"
            + ChildJvm.tail(log));
      }
      Thread.sleep(200);
    }
  }

  private List<String> s3mock(Path dir) {
    String jar = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.matches(".*s3mock-[^/]*-exec\\.jar")).findFirst()
        .orElseThrow(() -> new IllegalStateException("S3Mock's exec jar is not on the test classpath"));
    return List.of(jar, "--server.port=0", "--server.address=127.0.0.1", "--com.adobe.testing.s3mock.httpPort=" + port,
        "--com.adobe.testing.s3mock.store.root=" + dir.resolve("store"),
        "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET);
  }

  /**
   * S3Proxy's settings file. Its file system store serves each folder of its base folder as a bucket, one that
   * others may read as public: the owner's permissions alone make the bucket private, as S3's are.
   */
  private List<String> s3proxy(Path dir) throws IOException {
    Path jar = Path.of("target", "s3proxy", "s3proxy.jar"); // the module's folder is the tests' working folder
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + ": S3Proxy's jar is missing (the build copies it in generate-test-resources)");
    }
    Files.createDirectories(dir.resolve("store").resolve(BUCKET),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path settings = dir.resolve("s3proxy.properties");
    Files.write(settings, List.of("s3proxy.endpoint=" + endpoint(), "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + ACCESS_KEY, "s3proxy.credential=" + SECRET_KEY, "jclouds.provider=filesystem-nio2",
        "jclouds.filesystem.basedir=" + dir.resolve("store"), "jclouds.identity=unused", "jclouds.credential=unused"));
    return List.of(jar.toString(), "--properties", settings.toString());
  }

  /** S3Mock lists the bucket to anyone; S3Proxy refuses an unsigned request, which shows that it checks. */
  private boolean serving() {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint() + "/" + BUCKET).toURL().openConnection();
      connection.setConnectTimeout(1000);
      connection.setReadTimeout(1000);
      return connection.getResponseCode() == (proxy ? 403 : 200);
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
   * A client configuration for this server: path-style http, its credentials, one
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
    settings.put("fs.s3a.access.key", ACCESS_KEY);
    settings.put("fs.s3a.secret.key", SECRET_KEY);
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
