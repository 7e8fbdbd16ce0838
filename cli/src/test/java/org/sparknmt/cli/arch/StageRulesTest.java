package org.sparknmt.cli.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules that make the top-level folders read as the pipeline: each module holds only its own
 * top-level package; a stage uses only the shared modules (base, model, common), never another stage;
 * the shared modules use only those before them; and no package depends on itself through another.
 */
class StageRulesTest {
  private static PackageGraph packages;
  private static PackageGraph modules;

  @BeforeAll
  static void readTheClasses() {
    packages = PackageGraph.of(Modules.classFolders(), Modules.PREFIX);
    modules = packages.grouped(Modules::of);
    assertTrue(modules.edges().containsKey("train"), "jdeps found no dependencies of train: " + modules.edges());
  }

  @Test
  void eachModuleHoldsOnlyItsOwnPackage() throws IOException {
    List<String> strays = new ArrayList<>();
    for (String module : Modules.ALL) {
      Path classes = Modules.ROOT.resolve(module).resolve("target/classes");
      try (Stream<Path> files = Files.walk(classes)) {
        files.filter(f -> f.toString().endsWith(".class"))
            .map(f -> classes.relativize(f.getParent()).toString().replace('/', '.'))
            .filter(pkg -> !Modules.of(pkg).equals(module))
            .distinct()
            .forEach(pkg -> strays.add(module + ": " + pkg));
      }
    }
    assertEquals(List.of(), strays, "packages outside their module's folder");
  }

  @Test
  void noStageUsesAnotherStageOrTheCommandLine() {
    Map<String, Set<String>> forbidden = new TreeMap<>();
    for (String stage : Modules.STAGES) {
      for (String used : modules.edges().getOrDefault(stage, Set.of())) {
        if (!Modules.SHARED.contains(used)) {
          forbidden.computeIfAbsent(stage, k -> new TreeSet<>()).add(used);
        }
      }
    }
    assertEquals(Map.of(), forbidden, "stages that use more than base, model and common: " + packages.edges());
  }

  @Test
  void theSharedModulesUseOnlyThoseBeforeThem() {
    Map<String, Set<String>> forbidden = new TreeMap<>();
    for (int i = 0; i < Modules.SHARED.size(); i++) {
      String module = Modules.SHARED.get(i);
      List<String> before = Modules.SHARED.subList(0, i);
      for (String used : modules.edges().getOrDefault(module, Set.of())) {
        if (!before.contains(used)) {
          forbidden.computeIfAbsent(module, k -> new TreeSet<>()).add(used);
        }
      }
    }
    assertEquals(Map.of(), forbidden, "shared modules that use a later module");
  }

  @Test
  void noPackageDependsOnItselfThroughAnother() {
    assertEquals(List.of(), packages.cycles(), "packages that depend on each other: " + packages.edges());
  }

  @Test
  void aCycleThroughThreePackagesIsFound() {
    PackageGraph graph = new PackageGraph(Map.of("a", Set.of("b"), "b", Set.of("c", "d"), "c", Set.of("a"),
        "d", Set.of()));
    assertEquals(List.of(Set.of("a", "b", "c")), graph.cycles());
  }

  @Test
  void packagesAreGroupedByTheirModule() {
    PackageGraph graph = new PackageGraph(Map.of("org.sparknmt.train", Set.of("org.sparknmt.train.x",
        "org.sparknmt.base.run", "org.sparknmt.translate")));
    assertEquals(Map.of("train", Set.of("base", "translate")), graph.grouped(Modules::of).edges());
  }
}
