package org.sparknmt.base.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparknmt.model.nn.TransformerConfig;
import org.sparknmt.prepare.PrepareConfig;
import org.sparknmt.testkit.TinyRun;
import org.sparknmt.train.TrainConfig;
import org.sparknmt.translate.TranslateConfig;

class JobConfigTest {
  @TempDir Path dir;

  @Test
  void defaultsBindToTheModelRecord() {
    TransformerConfig model = JobConfig.load(null, List.of()).bind("model", TransformerConfig.class);
    assertEquals(TinyRun.MODEL.toBuilder().dModel(256).heads(4).dFf(1024).layers(3).maxLength(256).build(), model);
  }

  /** The model sizes live in conf/ only: tiny, small (the defaults), the paper's base and big. */
  @Test
  void theModelSizesAreTheirConfFiles() {
    TransformerConfig defaults = JobConfig.load(null, List.of()).bind("model", TransformerConfig.class);
    assertEquals(defaults, size("small"));
    assertEquals(TinyRun.MODEL.toBuilder().dModel(64).heads(4).dFf(128).layers(2).maxLength(128).build(), size("tiny"));
    assertEquals(TinyRun.MODEL.toBuilder().dModel(512).heads(8).dFf(2048).layers(6).maxLength(512).build(), size("base"));
    assertEquals(TinyRun.MODEL.toBuilder().dModel(1024).heads(16).dFf(4096).layers(6).maxLength(512)
        .dropout(0.3).build(), size("big"));
  }

  private static TransformerConfig size(String name) {
    Path conf = Path.of(System.getProperty("sparknmt.build.dir")).getParent().resolve("conf");
    return JobConfig.load(conf.resolve(name + ".conf"), List.of()).bind("model", TransformerConfig.class);
  }

  @Test
  void fileOverridesDefaultsAndSetOverridesFile() throws IOException {
    Path file = write("model { layers = 2, d_model = 128 }\n");
    TransformerConfig model = JobConfig.load(file, List.of("model.layers=6", "model.pre_norm=true"))
        .bind("model", TransformerConfig.class);
    assertEquals(6, model.layers());
    assertEquals(128, model.dModel());
    assertTrue(model.preNorm());
    assertEquals(4, model.heads());
  }

  @Test
  void laterSetWins() {
    TransformerConfig model = JobConfig.load(null, List.of("model.layers=2", "model.layers=5"))
        .bind("model", TransformerConfig.class);
    assertEquals(5, model.layers());
  }

  @Test
  void unknownKeyInFileNamesKeyAndFile() throws IOException {
    Path file = write("model {\n  layers = 2\n  dmodel = 128\n}\n");
    ConfigException e = assertThrows(ConfigException.class, () -> JobConfig.load(file, List.of()));
    assertTrue(e.getMessage().contains("model.dmodel"), e.getMessage());
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains(": 3"), "line number missing: " + e.getMessage());
    assertTrue(e.getMessage().contains("d_model"), "known keys not listed: " + e.getMessage());
  }

  @Test
  void sentencesLongerThanTheModelIsAUsageErrorNamingBothKeys() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("model.max_length=128")));
    assertTrue(e.getMessage().contains("data.max_subwords"), e.getMessage());
    assertTrue(e.getMessage().contains("model.max_length (128, --set model.max_length=128"), e.getMessage());
    JobConfig.load(null, List.of("model.max_length=128", "data.max_subwords=127"));
  }

  @Test
  void unknownKeyInSetNamesTheOverride() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> JobConfig.load(null, List.of("model.lyers=6")));
    assertTrue(e.getMessage().contains("model.lyers"), e.getMessage());
    assertTrue(e.getMessage().contains("--set model.lyers=6"), e.getMessage());
  }

  @Test
  void illTypedKeyNamesKeyAndFile() throws IOException {
    Path file = write("model.layers = many\n");
    JobConfig config = JobConfig.load(file, List.of());
    ConfigException e = assertThrows(ConfigException.class, () -> config.bind("model", TransformerConfig.class));
    assertTrue(e.getMessage().contains("layers"), e.getMessage());
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
  }

  @Test
  void invalidCombinationIsRejectedNamingTheSection() {
    JobConfig config = JobConfig.load(null, List.of("model.d_model=100", "model.heads=3"));
    ConfigException e = assertThrows(ConfigException.class, () -> config.bind("model", TransformerConfig.class));
    assertTrue(e.getMessage().contains("model"), e.getMessage());
    assertTrue(e.getMessage().contains("divisible by heads"), e.getMessage());
  }

  @Test
  void setWithoutEqualsIsAUsageError() {
    ConfigException e = assertThrows(ConfigException.class, () -> JobConfig.load(null, List.of("model.layers")));
    assertTrue(e.getMessage().contains("key=value"), e.getMessage());
  }

  @Test
  void missingFileIsNamed() {
    Path missing = dir.resolve("nope.conf");
    ConfigException e = assertThrows(ConfigException.class, () -> JobConfig.load(missing, List.of()));
    assertTrue(e.getMessage().contains("nope.conf"), e.getMessage());
  }

  @Test
  void shippedConfigFilesAreValid() throws IOException {
    Path conf = Path.of(System.getProperty("sparknmt.build.dir")).getParent().resolve("conf");
    try (var files = Files.list(conf)) {
      List<Path> hocon = files.filter(p -> p.toString().endsWith(".conf")).toList();
      assertTrue(!hocon.isEmpty(), "no conf/*.conf found in " + conf);
      for (Path file : hocon) {
        JobConfig config = JobConfig.load(file, List.of());
        config.bind("model", TransformerConfig.class);
        config.bind("data", PrepareConfig.class);
        config.bind("train", TrainConfig.class);
        config.bind("translate", TranslateConfig.class);
      }
    }
  }

  /** Typesafe Config reads NaN and Infinity as doubles: each must be refused naming its key, not train on. */
  @Test
  void nonFiniteLearningRateOrClipNormIsRefusedNamingTheKey() {
    for (String set : List.of("train.lr=NaN", "train.lr=Infinity", "train.lr=-Infinity", "train.clip_norm=NaN",
        "train.clip_norm=Infinity", "train.clip_norm=-Infinity")) {
      JobConfig config = JobConfig.load(null, List.of(set));
      ConfigException e = assertThrows(ConfigException.class, () -> config.bind("train", TrainConfig.class), set);
      String key = set.substring("train.".length(), set.indexOf('='));
      String value = set.substring(set.indexOf('=') + 1);
      assertTrue(e.getMessage().contains("'train'") && e.getMessage().contains(key + " must be a finite")
          && e.getMessage().endsWith("got " + value), set + ": " + e.getMessage());
    }
    assertEquals(0.0, JobConfig.load(null, List.of("train.clip_norm=0")).bind("train", TrainConfig.class).clipNorm());
  }

  @Test
  void microBatchesBelowOneAreRefusedNamingTheKey() {
    for (String value : List.of("0", "-2")) {
      JobConfig config = JobConfig.load(null, List.of("train.micro_batches=" + value));
      ConfigException e = assertThrows(ConfigException.class, () -> config.bind("train", TrainConfig.class), value);
      assertTrue(e.getMessage().contains("'train'") && e.getMessage().contains("micro_batches must be positive")
          && e.getMessage().endsWith("got " + value), e.getMessage());
    }
    assertEquals(1, JobConfig.load(null, List.of()).bind("train", TrainConfig.class).microBatches());
    assertEquals(3, JobConfig.load(null, List.of("train.micro_batches=3")).bind("train", TrainConfig.class).microBatches());
  }

  @Test
  void theDeEnRecipeIsTheEnDeRecipe() {
    Path conf = Path.of(System.getProperty("sparknmt.build.dir")).getParent().resolve("conf");
    JobConfig enDe = JobConfig.load(conf.resolve("multi30k-en-de.conf"), List.of());
    JobConfig deEn = JobConfig.load(conf.resolve("multi30k-de-en.conf"), List.of());
    assertEquals(enDe.bind("model", TransformerConfig.class), deEn.bind("model", TransformerConfig.class));
    assertEquals(enDe.bind("data", PrepareConfig.class), deEn.bind("data", PrepareConfig.class));
    assertEquals(enDe.bind("train", TrainConfig.class), deEn.bind("train", TrainConfig.class));
  }

  @Test
  void componentNamesMapToSnakeCaseKeys() {
    assertEquals("d_model", RecordBinder.keyOf("dModel"));
    assertEquals("max_tokens", RecordBinder.keyOf("maxTokens"));
    assertEquals("layers", RecordBinder.keyOf("layers"));
  }

  private Path write(String hocon) throws IOException {
    Path file = dir.resolve("test.conf");
    Files.writeString(file, hocon);
    return file;
  }
}
