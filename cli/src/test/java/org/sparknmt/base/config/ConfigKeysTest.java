package org.sparknmt.base.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.translate.HypothesesConfig;
import org.sparknmt.translate.TranslateConfig;

/** The one declaration of every key, and the docs' key tables checked against it. */
class ConfigKeysTest {
  private static final Path ROOT = Path.of(System.getProperty("sparknmt.build.dir")).getParent();

  @Test
  void everyKeyIsAComponentOfItsSectionsRecordAndEveryComponentAKey() {
    List<String> components = new ArrayList<>();
    components(TransformerConfig.class, "model", components);
    components(PrepareConfig.class, "data", components);
    components(TrainConfig.class, "train", components);
    components(TranslateConfig.class, "translate", components);
    components(HypothesesConfig.class, "translate", components);
    assertEquals(new TreeSet<>(components), new TreeSet<>(ConfigKeys.all().stream().map(ConfigKey::path).toList()));
  }

  @Test
  void keysComeInTheDefaultsFilesOrderEachWithItsCommentAsDescription() {
    List<ConfigKey> keys = ConfigKeys.all();
    assertEquals(new ConfigKey("model.d_model", "256", "d_model, the width of every sublayer's output; even, and divisible"
        + " by heads"), keys.get(0));
    ConfigKey schedule = keys.stream().filter(k -> k.path().equals("train.lr")).findFirst().orElseThrow();
    assertEquals(new ConfigKey("train.lr", "0.001", "the schedule's factor or peak, finite, > 0"), schedule);
    assertEquals("translate.prefix", keys.get(keys.size() - 1).path());
    for (ConfigKey key : keys) {
      assertFalse(key.description().contains("|"), key.path() + ": a '|' would break the docs' Markdown tables");
    }
  }

  @Test
  void everyKeyHasARowInTheConfigurationPage() throws IOException {
    String page = Files.readString(ROOT.resolve("docs/configuration.md"));
    assertTrue(page.contains(ConfigExplanation.markdown(ConfigKeys.all())),
        "docs/configuration.md lacks the table of `scripts/sparknmt config --explain --markdown`; regenerate it");
  }

  @Test
  void everyKeyRowInTheDocsAgreesWithTheDeclaration() throws IOException {
    Map<String, ConfigKey> keys = ConfigKeys.all().stream().collect(Collectors.toMap(ConfigKey::path, Function.identity()));
    List<Path> pages;
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      pages = Stream.concat(docs.filter(p -> p.toString().endsWith(".md")), Stream.of(ROOT.resolve("README.md"))).toList();
    }
    int rows = 0;
    for (Path page : pages) {
      List<String> lines = Files.readAllLines(page);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (!line.startsWith("| `")) {
          continue;
        }
        String first = line.substring(3, line.indexOf('`', 3));
        if (keys.containsKey(first)) {
          assertEquals(ConfigExplanation.markdownRow(keys.get(first)), line,
              page.getFileName() + ":" + (i + 1) + ": the row of " + first + " differs from sparknmt-defaults.conf");
          rows++;
        }
      }
    }
    assertTrue(rows >= keys.size(), "found only " + rows + " key rows in docs/");
  }

  private static void components(Class<? extends Record> type, String prefix, List<String> into) {
    for (RecordBinder.Key component : RecordBinder.keys(type)) {
      String key = prefix + "." + component.name();
      if (component.type().isRecord()) {
        @SuppressWarnings("unchecked")
        Class<? extends Record> section = (Class<? extends Record>) component.type();
        components(section, key, into);
      } else {
        into.add(key);
      }
    }
  }
}
