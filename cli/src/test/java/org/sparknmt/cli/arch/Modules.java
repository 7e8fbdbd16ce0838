package org.sparknmt.cli.arch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The modules whose classes ship, in build order, and the module a package of theirs belongs to. */
final class Modules {
  static final Path ROOT = Path.of(System.getProperty("sparknmt.build.dir")).getParent();
  static final String PREFIX = "org.sparknmt";
  /** The shared modules: a stage may use these and nothing else of sparknmt. */
  static final List<String> SHARED = List.of("base", "model", "common");
  /** The pipeline's stages and the run report: none may use another. */
  static final List<String> STAGES = List.of("prepare", "train", "translate", "evaluate", "report");
  static final List<String> ALL = List.of("base", "model", "common", "prepare", "train", "translate", "evaluate",
      "report", "cli");

  private Modules() {}

  /** Each module's compiled classes (its main code, not its tests). */
  static List<Path> classFolders() {
    List<Path> folders = ALL.stream().map(m -> ROOT.resolve(m).resolve("target/classes")).toList();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        throw new IllegalStateException(folder + " is missing: build every module before the cli tests");
      }
    }
    return folders;
  }

  /** {@code org.sparknmt.train.x} -> {@code train}: the top-level package names its module. */
  static String of(String pkg) {
    String rest = pkg.equals(PREFIX) ? "" : pkg.substring(PREFIX.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
