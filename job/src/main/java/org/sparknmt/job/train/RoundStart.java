package org.sparknmt.job.train;

import java.io.Serializable;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.updater.graph.ComputationGraphUpdater;

/**
 * What every worker of a round starts from, broadcast once per round: the network's configuration,
 * the averaged state, and the size of the training step's workspace that the workers of earlier rounds
 * needed (0 before the first round), which a worker's thread reserves before its first step
 * ({@link org.sparknmt.model.infer.PassWorkspace#reserve}).
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
}
