package org.sparknmt.cli.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sparknmt.cli.Main;

/** Dependencies between the packages of job/ run one way (docs/architecture.md draws them). */
class PackageCyclesTest {
  private static final String JOB = "org.sparknmt.job";

  @Test
  void noPackageOfJobDependsOnItselfThroughAnother() throws URISyntaxException {
    Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    PackageGraph graph = PackageGraph.of(classes, JOB);
    assertTrue(graph.edges().containsKey(JOB + ".train"), "jdeps found no dependencies of train in " + classes
        + ": " + graph.edges());
    assertEquals(List.of(), graph.cycles(), "packages that depend on each other: " + graph.edges());
  }

  @Test
  void aCycleThroughThreePackagesIsFound() {
    PackageGraph graph = new PackageGraph(Map.of("a", Set.of("b"), "b", Set.of("c", "d"), "c", Set.of("a"),
        "d", Set.of()));
    assertEquals(List.of(Set.of("a", "b", "c")), graph.cycles());
  }
}
