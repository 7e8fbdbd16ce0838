package org.sparknmt.model.decode;

/** How a finished hypothesis's log-probability is normalized by its length before hypotheses are compared. */
public sealed interface LengthPenalty extends java.io.Serializable permits LengthPenalty.Gnmt, LengthPenalty.Power {

  /** The strength of the normalization: 0 leaves scores as they are. */
  double alpha();

  /** The normalized score of a hypothesis of {@code length} tokens (EOS included) and summed log-probability. */
  double normalize(double logProbability, int length);

  /** GNMT (Wu et al. 2016, Eq. 14): lp(Y) = ((5 + |Y|)^α) / ((5 + 1)^α); α = 0 disables it. */
  record Gnmt(double alpha) implements LengthPenalty {
    @Override
    public double normalize(double logProbability, int length) {
      return logProbability / Math.pow((5.0 + length) / 6.0, alpha);
    }
  }

  /** fairseq's {@code --lenpen}: score / |Y|^α (α = 1: mean log-probability per token). */
  record Power(double alpha) implements LengthPenalty {
    @Override
    public double normalize(double logProbability, int length) {
      return logProbability / Math.pow(length, alpha);
    }
  }
}
