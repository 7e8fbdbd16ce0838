package org.sparknmt.train;

import java.io.Serializable;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.updater.graph.ComputationGraphUpdater;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What every worker of a round starts from, broadcast once per round: the network's configuration,
 * the averaged state, and the size of the training step's workspace that the workers of earlier rounds
 * needed (0 before the first round), which a worker's thread reserves before its first step when it has
 * none yet ({@link org.sparknmt.model.infer.PassWorkspace#reserve}).
 */
record RoundStart(ComputationGraphConfiguration configuration, RoundState state, long stepWorkspaceBytes)
    implements Serializable {

  /**
   * A worker's own network: a configuration clone (each worker sets its iteration count) with its own
   * copies of the parameters and, when they travelled, Adam's moments (otherwise Adam starts afresh).
   */
  ComputationGraph network() {
    ComputationGraph net = new ComputationGraph(configuration.clone());
    net.init(state.parameterArray(), false);
    if (state.updater() != null) {
      net.setUpdater(new ComputationGraphUpdater(net, state.updaterArray()));
    }
    return net;
  }

  /**
   * Puts {@code net}, which an earlier round's worker built from this configuration, in the state that
   * {@link #network} would build: the parameters, Adam's moments (zeros when they did not travel, as a
   * new updater starts) and the configuration's iteration and epoch counts. Its arrays stay, so does the
   * updater that its solver holds.
   */
  void reset(ComputationGraph net) {
    state.parameters().copyInto(net.params(), 0);
    INDArray moments = net.getUpdater().getStateViewArray();
    if (state.updater() != null) {
      state.updater().copyInto(moments, 0);
    } else {
      moments.assign(0);
    }
    net.getConfiguration().setIterationCount(configuration.getIterationCount());
    net.getConfiguration().setEpochCount(configuration.getEpochCount());
  }
}
