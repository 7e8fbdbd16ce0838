package org.sparknmt.cli.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sparknmt.cli.Main;

/** The package graph drawn in docs/architecture.md is the one the compiled classes have. */
class ArchitectureDocTest {
  private static final Path ROOT = Path.of(System.getProperty("sparknmt.build.dir")).getParent();
  private static final String JOB = "org.sparknmt.job";

  @Test
  void theDrawnPackageGraphIsTheImportedOne() throws IOException, URISyntaxException {
    Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    MermaidPackageGraph imported = MermaidPackageGraph.of(PackageGraph.of(classes, JOB), JOB);
    MermaidPackageGraph drawn = MermaidPackageGraph.parse(Files.readString(ROOT.resolve("docs/architecture.md")));
    assertEquals(imported.arrows(), drawn.arrows(),
        "docs/architecture.md's package graph differs from the imports; its arrows should read:\n" + imported.render());
  }

  @Test
  void aMissingArrowIsSeen() {
    String page = """
        <!-- package-graph -->
        ```mermaid
        flowchart TD
          root["org.sparknmt.job"]
          train --> io & run
        ```
        <!-- /package-graph -->
        """;
    MermaidPackageGraph drawn = MermaidPackageGraph.parse(page);
    assertEquals(Map.of("train", Set.of("io", "run")), drawn.arrows());
    MermaidPackageGraph imported = MermaidPackageGraph.of(
        new PackageGraph(Map.of(JOB + ".train", Set.of(JOB + ".io", JOB + ".run", JOB))), JOB);
    assertEquals(Map.of("train", Set.of("io", "run", "root")), imported.arrows());
    assertEquals("  train --> io & root & run\n", imported.render());
  }

  @Test
  void aPageWithoutTheMarkedGraphIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MermaidPackageGraph.parse("# no graph here\n"));
  }
}
