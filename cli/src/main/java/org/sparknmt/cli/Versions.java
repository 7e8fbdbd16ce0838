package org.sparknmt.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine;

/** The versions a user reports with a bug: sparknmt and the Spark line it was built for, Spark, Scala, Hadoop, DL4J, the ND4J backend and BLAS, Java, and the memory limits. */
public final class Versions {
  private Versions() {}

  public static String sparknmt() {
    return built().getProperty("version");
  }

  /** What the build recorded: sparknmt's version and the DL4J/ND4J artifacts it was built with. */
  private static Properties built() {
    try (InputStream in = Versions.class.getResourceAsStream("/sparknmt-version.properties")) {
      Properties properties = new Properties();
      properties.load(in);
      return properties;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Name to version, in the order printed. Loads the ND4J native backend. */
  public static Map<String, String> all() {
    Map<String, String> versions = new LinkedHashMap<>();
    versions.put("sparknmt", sparknmt());
    // The line of the build's Spark profile: the fat jar runs on a cluster of that line only (Scala 2.13 for 4, 2.12 for 3.5).
    Properties built = built();
    versions.put("Built for", "Spark " + built.getProperty("spark.line") + " (Scala " + built.getProperty("scala.binary")
        + ", compiled against Spark " + built.getProperty("spark") + ")");
    versions.put("Spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
    versions.put("Scala", scala.util.Properties.versionNumberString());
    versions.put("Hadoop", org.apache.hadoop.util.VersionInfo.getVersion());
    versions.put("DL4J", built().getProperty("dl4j"));
    Map<Object, Object> env = Nd4j.getExecutioner().getEnvironmentInformation();
    versions.put("ND4J backend", Nd4j.getBackend().getClass().getSimpleName()
        + " (nd4j-native " + NativeLibrary.build() + ", " + env.get("cores") + " cores)");
    versions.put("BLAS", String.valueOf(env.get("blas.vendor")));
    versions.put("Java", System.getProperty("java.vm.name") + " " + Runtime.version());
    long processCap = Pointer.maxPhysicalBytes() >> 20;
    versions.put("Memory", String.format("heap %d MB, ND4J off-heap cap %d MB, process cap %s",
        Runtime.getRuntime().maxMemory() >> 20, Pointer.maxBytes() >> 20, processCap > 0 ? processCap + " MB" : "none"));
    return versions;
  }

  /** Feeds {@code sparknmt --version}. */
  public static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sparknmt " + sparknmt()};
    }
  }
}
