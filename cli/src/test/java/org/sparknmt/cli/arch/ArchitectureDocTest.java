package org.sparknmt.cli.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The module graph drawn in docs/architecture.md is the one the compiled classes have. */
class ArchitectureDocTest {
  private static final String APP = "org.example.app";

  @Test
  void theDrawnModuleGraphIsTheImportedOne() throws IOException {
    PackageGraph modules = PackageGraph.of(Modules.classFolders(), Modules.PREFIX).grouped(Modules::of);
    MermaidPackageGraph imported = MermaidPackageGraph.of(modules, "");
    MermaidPackageGraph drawn = MermaidPackageGraph.parse(
        Files.readString(Modules.ROOT.resolve("docs/architecture.md")));
    assertEquals(imported.arrows(), drawn.arrows(),
        "docs/architecture.md's module graph differs from the imports; its arrows should read:\n" + imported.render());
  }

  @Test
  void aMissingArrowIsSeen() {
    String page = """
        <!-- package-graph -->
        ```mermaid
        flowchart TD
          root["org.example.app"]
          train --> io & run
        ```
        <!-- /package-graph -->
        """;
    MermaidPackageGraph drawn = MermaidPackageGraph.parse(page);
    assertEquals(Map.of("train", Set.of("io", "run")), drawn.arrows());
    MermaidPackageGraph imported = MermaidPackageGraph.of(
        new PackageGraph(Map.of(APP + ".train", Set.of(APP + ".io", APP + ".run", APP))), APP);
    assertEquals(Map.of("train", Set.of("io", "run", "root")), imported.arrows());
    assertEquals("  train --> io & root & run\n", imported.render());
  }

  @Test
  void aPageWithoutTheMarkedGraphIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MermaidPackageGraph.parse("# no graph here\n"));
  }
}
