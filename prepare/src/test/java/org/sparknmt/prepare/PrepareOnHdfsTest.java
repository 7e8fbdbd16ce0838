package org.sparknmt.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.common.data.Split;
import org.sparknmt.common.vocab.SpecialTokens;
import org.sparknmt.prepare.input.CorpusInput;
import org.sparknmt.testkit.MiniHdfs;
import org.sparknmt.testkit.SparkCluster;

/**
 * The shipped sample from {@code hdfs://} to shards on {@code hdfs://}, on a real local cluster
 * (two executor JVMs), read back as MultiDataSets on the executors. About 80 s on two cores.
 */
@Tag("slow")
class PrepareOnHdfsTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();
  @RegisterExtension static final SparkCluster SPARK = new SparkCluster();

  @Test
  void preparesTheSampleOnHdfsAndTheExecutorsReadMultiDataSets() throws Exception {
    Configuration conf = SPARK.sc().hadoopConfiguration();
    FileSystem fs = FileSystem.get(HDFS.hdfs().uri(), conf);
    for (String name : List.of("train.en.gz", "train.de.gz", "valid.en.gz", "valid.de.gz")) {
      fs.copyFromLocalFile(new Path(Samples.sampleDir().resolve(name).toUri()), new Path(HDFS.path("/corpus/" + name)));
    }
    String run = HDFS.path("/runs/sample");
    PrepareConfig config = new PrepareConfig(1000, 0.9999, 200_000, 250, 1500, 9.0, 254, 2048, 0, 2, 3, 0.0, 17);
    PrepareJob.Result result = PrepareJob.run(SPARK.sc(), new PrepareJob.Request(
        new CorpusInput.Aligned(HDFS.path("/corpus/train.en.gz"), HDFS.path("/corpus/train.de.gz")),
        new CorpusInput.Aligned(HDFS.path("/corpus/valid.en.gz"), HDFS.path("/corpus/valid.de.gz")),
        run, config, false, false));

    JsonNode counts = result.manifest().get("counts");
    assertEquals(3200, counts.get("read").asLong());
    assertEquals(3000, counts.get("train").asLong() + counts.get("rejected").asLong());
    assertEquals(200, counts.get("valid").asLong());
    assertTrue(fs.exists(new Path(run + "/data/manifest.json")));

    // Counting on the executors is exact: the same table counted here gives the same vocabulary.
    java.util.Map<String, Long> words = new java.util.HashMap<>();
    for (String file : List.of("train.en.gz", "train.de.gz")) {
      for (String line : Samples.lines(file)) {
        for (String word : org.sparknmt.common.clean.Normalizer.normalize(line).split(" ")) {
          words.merge(word, 1L, Long::sum);
        }
      }
    }
    assertEquals(org.sparknmt.common.vocab.BpeLearner.learn(
        org.sparknmt.common.vocab.WordCounts.of(words), 1000, 0.9999).sha256(),
        result.manifest().get("vocab").get("sha256").asText());

    PreparedData data = PreparedData.open(run, conf);
    assertTrue(data.shards(Split.TRAIN).get(0).startsWith("hdfs://"), data.shards(Split.TRAIN).toString());
    int vocabSize = data.vocabulary().size();
    // On the executors: every MultiDataSet has the contract's shapes, masks that count real tokens,
    // and ids inside the vocabulary; returns (pairs, masked target tokens, executor pid).
    List<long[]> checked = data.multiDataSets(SPARK.sc(), Split.TRAIN).map(mds -> {
      INDArray src = mds.getFeatures(0);
      INDArray tgtIn = mds.getFeatures(1);
      INDArray tgtOut = mds.getLabels(0);
      boolean shapes = src.rank() == 2 && tgtIn.equalShapes(tgtOut) && src.equalShapes(mds.getFeaturesMaskArray(0))
          && tgtIn.equalShapes(mds.getFeaturesMaskArray(1)) && mds.getLabelsMaskArray(0).equalShapes(tgtIn)
          && src.size(0) == tgtIn.size(0);
      boolean ids = src.maxNumber().intValue() < vocabSize && tgtOut.maxNumber().intValue() < vocabSize
          && tgtIn.getDouble(0, 0) == SpecialTokens.BOS;
      long masked = mds.getFeaturesMaskArray(1).sumNumber().longValue();
      return new long[] {shapes && ids ? src.size(0) : -1, masked, ProcessHandle.current().pid()};
    }).collect();
    long pairs = checked.stream().mapToLong(c -> c[0]).peek(p -> assertTrue(p > 0, "bad batch")).sum();
    assertEquals(counts.get("train").asLong(), pairs);
    long targetTokens = checked.stream().mapToLong(c -> c[1]).sum();
    assertEquals(result.manifest().get("train").get("target_tokens").asLong() + pairs, targetTokens, "tokens + EOS");
    assertTrue(checked.stream().noneMatch(c -> c[2] == ProcessHandle.current().pid()), "read on the executors");
  }
}
