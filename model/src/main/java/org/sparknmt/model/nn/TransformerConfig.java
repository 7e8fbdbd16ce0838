package org.sparknmt.model.nn;

/**
 * The hyper-parameters of the Transformer ("Attention is all you need", Table 3), in the paper's
 * symbols. Each component is the configuration key {@code model.<component in snake_case>}, described
 * with its default once, in sparknmt-defaults.conf ({@code sparknmt config --explain} lists them).
 * Validated once here; the message names the key.
 */
public record TransformerConfig(
    int dModel,
    int heads,
    int dFf,
    int layers,
    int maxLength,
    double dropout,
    double attentionDropout,
    double labelSmoothing,
    boolean shareEmbeddings,
    boolean preNorm,
    boolean learnedPositions) {

  public TransformerConfig {
    requirePositive("d_model", dModel);
    requirePositive("heads", heads);
    requirePositive("d_ff", dFf);
    requirePositive("layers", layers);
    requirePositive("max_length", maxLength);
    if (dModel % heads != 0) {
      throw new IllegalArgumentException(
          "d_model (" + dModel + ") must be divisible by heads (" + heads + ")");
    }
    if (dModel % 2 != 0) {
      throw new IllegalArgumentException("d_model (" + dModel + ") must be even for the sinusoidal encoding");
    }
    requireProbability("dropout", dropout);
    requireProbability("attention_dropout", attentionDropout);
    requireProbability("label_smoothing", labelSmoothing);
  }

  /** d_k = d_v = d_model / h. */
  public int dHead() {
    return dModel / heads;
  }

  /** A builder holding these values, so that a call site names the components it changes. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Sets components by name; {@link #build} validates once, so the order of the setters does not matter. */
  public static final class Builder {
    private int dModel;
    private int heads;
    private int dFf;
    private int layers;
    private int maxLength;
    private double dropout;
    private double attentionDropout;
    private double labelSmoothing;
    private boolean shareEmbeddings;
    private boolean preNorm;
    private boolean learnedPositions;

    private Builder(TransformerConfig from) {
      dModel = from.dModel;
      heads = from.heads;
      dFf = from.dFf;
      layers = from.layers;
      maxLength = from.maxLength;
      dropout = from.dropout;
      attentionDropout = from.attentionDropout;
      labelSmoothing = from.labelSmoothing;
      shareEmbeddings = from.shareEmbeddings;
      preNorm = from.preNorm;
      learnedPositions = from.learnedPositions;
    }

    public Builder dModel(int value) {
      dModel = value;
      return this;
    }

    public Builder heads(int value) {
      heads = value;
      return this;
    }

    public Builder dFf(int value) {
      dFf = value;
      return this;
    }

    public Builder layers(int value) {
      layers = value;
      return this;
    }

    public Builder maxLength(int value) {
      maxLength = value;
      return this;
    }

    public Builder dropout(double value) {
      dropout = value;
      return this;
    }

    public Builder attentionDropout(double value) {
      attentionDropout = value;
      return this;
    }

    public Builder labelSmoothing(double value) {
      labelSmoothing = value;
      return this;
    }

    public Builder shareEmbeddings(boolean value) {
      shareEmbeddings = value;
      return this;
    }

    public Builder preNorm(boolean value) {
      preNorm = value;
      return this;
    }

    public Builder learnedPositions(boolean value) {
      learnedPositions = value;
      return this;
    }

    public TransformerConfig build() {
      return new TransformerConfig(dModel, heads, dFf, layers, maxLength, dropout, attentionDropout, labelSmoothing,
          shareEmbeddings, preNorm, learnedPositions);
    }
  }

  private static void requirePositive(String key, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(key + " must be positive, got " + value);
    }
  }

  private static void requireProbability(String key, double value) {
    if (!(value >= 0 && value < 1)) {
      throw new IllegalArgumentException(key + " must be in [0, 1), got " + value);
    }
  }
}
