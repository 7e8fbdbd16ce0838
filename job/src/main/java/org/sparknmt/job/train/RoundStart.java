package org.sparknmt.job.train;

import java.io.Serializable;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.updater.graph.ComputationGraphUpdater;

/**
 * What every worker of a round starts from, broadcast once per round: the network's configuration
 * and the averaged state.
 */
record RoundStart(ComputationGraphConfiguration configuration, RoundState state) implements Serializable {

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
