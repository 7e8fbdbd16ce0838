package org.sparknmt.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * BENCHMARKS.md as the bench scripts wrote it holds no value they failed to read, and the README's and
 * docs' links into it (the figures live there only) land on its headings.
 */
class BenchmarksPageTest {
  private static final Path ROOT = Path.of(System.getProperty("sparknmt.build.dir")).getParent();
  private static final Path PAGE = ROOT.resolve("BENCHMARKS.md");
  /** A markdown link's target that is BENCHMARKS.md, with its anchor if any. */
  private static final Pattern LINK = Pattern.compile("]\\(((?:\\.\\./)*BENCHMARKS\\.md)(?:#([^)\\s]*))?\\)");

  @Test
  void holdsNoPlaceholderNegativeTimeOrMachinePath() throws IOException {
    List<String> defects = BenchmarksPage.defects(Files.readString(PAGE));
    assertTrue(defects.isEmpty(), "BENCHMARKS.md: fix the scripts/lib writer of each, then its section:\n"
        + String.join("\n", defects));
  }

  @Test
  void linksIntoItLandOnItsHeadings() throws IOException {
    Set<String> anchors = BenchmarksPage.anchors(Files.readString(PAGE));
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        boolean fileFound = page.getParent().resolve(m.group(1)).normalize().equals(PAGE);
        if (!fileFound || (m.group(2) != null && !anchors.contains(m.group(2)))) {
          broken.add(ROOT.relativize(page) + ": " + m.group(1) + (m.group(2) == null ? "" : "#" + m.group(2)));
        }
      }
    }
    assertTrue(broken.isEmpty(), "links into BENCHMARKS.md that land nowhere: " + broken + "; its headings' anchors: " + anchors);
  }

  @Test
  void eachDefectIsSeen() {
    assertEquals(List.of(), BenchmarksPage.defects("""
        A question? Load 1.09-2.33, k = 1, `/usr/bin/time -v`, ../shared/data/multi30k/val.en.gz, 3 tokens/s.
        | - | 0.51 / 0.44 | hdfs:///runs/en-de | spark://127.0.0.1:7077 |
        <!-- bench-workers -->
        """));
    List<String> defects = BenchmarksPage.defects("""
        a tiny model (vocabulary ? (? types))
        | data load | -2.68 | -3.85 |
        took -1.5 s
        with /work/main/target/bench-translate/run-recipe latest
        on file:///home/me/runs/x
        """);
    assertEquals(5, defects.size(), String.join("\n", defects));
    assertTrue(defects.get(0).startsWith("line 1: a \"?\""), defects.get(0));
    assertTrue(defects.get(1).startsWith("line 2: a negative time (\"-2.68\")"), defects.get(1));
    assertTrue(defects.get(2).startsWith("line 3: a negative time"), defects.get(2));
    assertTrue(defects.get(3).startsWith("line 4: a path of the machine that ran (\"/work"), defects.get(3));
    assertTrue(defects.get(4).startsWith("line 5: a path of the machine that ran (\"file:"), defects.get(4));
  }

  @Test
  void anchorsAreGitHubs() {
    assertEquals(List.of("benchmarks", "production-sizes-transformer-base-and--big",
            "many-workers-time-to-quality-against-w-scriptsbench-workers", "see-docsnotes", "translation",
            "translation-1"),
        List.copyOf(BenchmarksPage.anchors("""
            # Benchmarks
            ## Production sizes: Transformer-base and -big
            ```
            # not a heading
            ```
            ## Many workers: time to quality against W (`scripts/bench-workers`)
            ### See [docs/notes](docs/notes/)
            ## Translation
            ## Translation
            """)));
  }
}
