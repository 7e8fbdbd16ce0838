package org.sparknmt.bench;

import org.sparknmt.model.nn.TransformerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * Matrix-multiply FLOPs of the encoder-decoder Transformer, for "% of GEMM peak" figures: one
 * multiply-add counts 2. Counted per layer: the Q, K, V and output projections, the attention scores
 * (Q·Kᵀ) and the weighted sum of values (full S×S or T×T: neither sparknmt nor the PyTorch peer skips the
 * masked half of causal attention), cross-attention (Q and output projections per target position, K and V
 * per source position), the two FFN matmuls; then the output projection onto the vocabulary. Not counted:
 * embedding lookups, softmax, layer norm, residuals, dropout, the loss and the optimizer update (all
 * linear in the activations, small beside the matmuls). Training = 3 x forward (the backward pass takes two
 * matmuls per forward matmul: the gradient of the input and of the weight).
 */
@Command(name = "FlopCount", mixinStandardHelpOptions = true,
    description = "Print the training matmul FLOPs per target token of a model size.")
public final class FlopCount implements Runnable {
  @Mixin
  ModelSize size;

  @Parameters(index = "2", paramLabel = "SRC_LEN", description = "Source length in tokens.")
  int sourceLength;

  @Parameters(index = "3", paramLabel = "TGT_LEN", description = "Target length in tokens.")
  int targetLength;

  /** Forward-pass matmul FLOPs of one sentence pair of source length {@code s} and target length {@code t}. */
  public static long forwardPerPair(TransformerConfig c, int vocab, int s, int t) {
    long d = c.dModel();
    long ff = c.dFf();
    long encoderLayer = s * 8 * d * d + 4L * s * s * d + s * 4 * d * ff;
    long decoderLayer = t * 8 * d * d + 4L * t * t * d // self-attention
        + t * 4 * d * d + s * 4 * d * d + 4L * t * s * d // cross-attention
        + t * 4 * d * ff;
    long output = t * 2 * d * vocab;
    return c.layers() * (encoderLayer + decoderLayer) + output;
  }

  /** Training (forward + backward) matmul FLOPs per target token. */
  public static double trainingPerTargetToken(TransformerConfig c, int vocab, int s, int t) {
    return 3.0 * forwardPerPair(c, vocab, s, t) / t;
  }

  @Override
  public void run() {
    TransformerConfig config = size.config();
    System.out.printf("train_flops_per_tgt_token=%.0f forward_flops_per_pair=%d%n",
        trainingPerTargetToken(config, size.vocab, sourceLength, targetLength),
        forwardPerPair(config, size.vocab, sourceLength, targetLength));
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new FlopCount()).execute(args));
  }
}
