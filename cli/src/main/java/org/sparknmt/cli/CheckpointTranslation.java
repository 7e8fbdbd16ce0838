package org.sparknmt.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparknmt.base.checkpoint.CheckpointStore;
import org.sparknmt.base.run.RunLayout;
import org.sparknmt.common.checkpoint.TrainedModel;
import org.sparknmt.common.data.PreparedData;
import org.sparknmt.evaluate.CheckpointTranslator;
import org.sparknmt.translate.TranslateConfig;
import org.sparknmt.translate.TranslateJob;
import org.sparknmt.translate.TranslationModel;

/** The translate stage as a checkpoint evaluation's translator: each checkpoint with the run's shortlist, if any. */
record CheckpointTranslation(JavaSparkContext sc, String runUri, PreparedData data, TranslateConfig config)
    implements CheckpointTranslator {

  static CheckpointTranslation of(JavaSparkContext sc, String runUri, TranslateConfig config) throws IOException {
    return new CheckpointTranslation(sc, runUri, PreparedData.open(runUri, sc.hadoopConfiguration()), config);
  }

  @Override
  public Translated translate(CheckpointStore store, CheckpointStore.Checkpoint checkpoint, JavaRDD<String> source,
      long sourceLines, Path folder) throws IOException {
    TranslationModel model = TranslationModel.of(TrainedModel.open(store, checkpoint, data))
        .withShortlist(config, runUri, sc.hadoopConfiguration());
    Path hyp = RunLayout.evalTranslation(folder, model.checkpoint());
    TranslateJob.Result translated = TranslateJob.run(sc, model, config, source, sourceLines, hyp.toString(), false);
    return new Translated(model.checkpoint(), model.step(), hyp, translated.sentencesPerSecond(),
        translated.tokensPerSecond(), translated.lines());
  }

  @Override
  public void describe(ObjectNode search) {
    search.put("beam", config.search().beamWidth());
    search.put("length_penalty", config.search().lengthPenalty().alpha());
    search.put("max_len_a", config.search().maxLengthA());
    search.put("max_len_b", config.search().maxLengthB());
    search.put("batch_size", config.batchSize());
  }
}
