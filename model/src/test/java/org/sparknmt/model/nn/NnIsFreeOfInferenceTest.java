package org.sparknmt.model.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The paper's boxes stay apart from the machinery that makes inference fast: nothing in {@code nn} may use
 * {@code infer} or {@code decode} (they use {@code nn}), as the JDK's {@code jdeps} reads the compiled classes.
 */
class NnIsFreeOfInferenceTest {
  private static final String NN = "org.sparknmt.model.nn";
  private static final Set<String> FORBIDDEN = Set.of("org.sparknmt.model.infer", "org.sparknmt.model.decode");
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");

  @Test
  void nnDependsOnNeitherInferNorDecode() throws Exception {
    Path classes = Path.of(Transformer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ToolProvider jdeps = ToolProvider.findFirst("jdeps")
        .orElseThrow(() -> new IllegalStateException("this JVM has no jdeps: run the tests on a JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package", "-filter:none",
        classes.toString());
    assertEquals(0, status, "jdeps " + classes + ": " + err);
    Set<String> used = new TreeSet<>();
    for (String line : out.toString().split("\n")) {
      Matcher m = EDGE.matcher(line);
      if (m.find() && m.group(1).equals(NN)) {
        used.add(m.group(2));
      }
    }
    assertTrue(used.contains("org.nd4j.linalg.api.ndarray"), "jdeps found no dependencies of nn in " + classes
        + ": " + out);
    Set<String> forbidden = new TreeSet<>(used);
    forbidden.retainAll(FORBIDDEN);
    assertEquals(Set.of(), forbidden, "nn uses inference machinery; move it to infer");
  }
}
