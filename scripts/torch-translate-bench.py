#!/usr/bin/python3
"""PyTorch peer for scripts/bench-translate: greedy and beam-search decoding speed of an encoder-decoder
Transformer of the given size (torch.nn.Transformer, like scripts/torch-train-bench.py, random weights,
eval mode, no grad), CPU. The source sentences are random ids with the lengths in LENGTHS_FILE (one per
line: the subword lengths of the benchmark's input), in batches of BATCH sentences sorted by length (as
sparknmt translates a block). The weights are random, so EOS is ignored: every hypothesis runs to the
length limit A*|source|+B (sparknmt's default 1.5 and 10), and there is no BLEU to report; compare target
tokens/s. Two searches over the same model:
  naive   each step reruns the decoder over the whole prefix (torch.nn.TransformerDecoder, causal mask);
  cached  incremental decoding: the source keys/values of every layer projected once per batch, the
          self-attention keys/values appended one position per step and reordered by beam index,
          the newest position only through each layer (fairseq's incremental_state, written out here
          because nn.TransformerDecoder has none).
Both give the same tokens (checked on the first batch, printed as "same tokens").

usage: torch-translate-bench.py D_MODEL HEADS FFN LAYERS VOCAB LENGTHS_FILE BEAMS(1,4) BATCH THREADS
prints per beam and search: sentences, target tokens, seconds, sentences/s, target tokens/s (after a warm-up)."""
import sys, time, torch, torch.nn as nn, torch.nn.functional as F

d, h, ffn, L, V = map(int, sys.argv[1:6])
lengths = [max(1, int(x)) for x in open(sys.argv[6]) if x.strip()]
beams = [int(b) for b in sys.argv[7].split(",")]
batch, threads = int(sys.argv[8]), int(sys.argv[9])
A, B = 1.5, 10
BOS = 2
torch.set_num_threads(threads); torch.manual_seed(0)
emb = nn.Embedding(V, d)
tf = nn.Transformer(d, h, L, L, ffn, dropout=0.1, batch_first=True)
out = nn.Linear(d, V, bias=False); out.weight = emb.weight
for m in (emb, tf, out):
    m.eval()
dk = d // h


def encode(src_lens, seed):
    g = torch.Generator().manual_seed(seed)
    n, S = len(src_lens), max(src_lens)
    src = torch.randint(4, V, (n, S), generator=g)
    pad = torch.arange(S)[None, :] >= torch.tensor(src_lens)[:, None]
    return tf.encoder(emb(src) * d ** .5, src_key_padding_mask=pad), pad


def choose(logp, scores, n, beam):
    """The next tokens and, per new hypothesis, the row of its parent; scores updated in place of a beam."""
    if beam == 1:
        return logp.argmax(-1), torch.arange(n), scores
    top, idx = (scores.reshape(-1, 1) + logp).reshape(n, beam * V).topk(beam, -1)
    rows = (torch.arange(n)[:, None] * beam + torch.div(idx, V, rounding_mode="floor")).reshape(-1)
    return (idx % V).reshape(-1), rows, top


def naive(src_lens, beam, seed):
    n, S = len(src_lens), max(src_lens)
    memory, pad = encode(src_lens, seed)
    memory, pad = memory.repeat_interleave(beam, 0), pad.repeat_interleave(beam, 0)
    ys = torch.full((n * beam, 1), BOS, dtype=torch.long)
    scores = torch.zeros(n, beam); scores[:, 1:] = float("-inf")
    for t in range(int(A * S + B)):
        y = tf.decoder(emb(ys) * d ** .5, memory, tgt_mask=tf.generate_square_subsequent_mask(t + 1),
                       memory_key_padding_mask=pad)
        token, rows, scores = choose(torch.log_softmax(out(y[:, -1]), -1), scores, n, beam)
        ys = torch.cat([ys[rows], token[:, None]], 1)
    return ys


def heads(x):  # [m, t, d] -> [m, h, t, dk]
    return x.view(x.shape[0], -1, h, dk).transpose(1, 2)


def attend(q, k, v, bias=None):  # q [m, h, 1, dk], k and v [m, h, t, dk] -> [m, d]
    s = q @ k.transpose(-1, -2) / dk ** .5
    if bias is not None:
        s = s + bias
    return (torch.softmax(s, -1) @ v).reshape(q.shape[0], d)


def cached(src_lens, beam, seed):
    n, S = len(src_lens), max(src_lens)
    memory, pad = encode(src_lens, seed)
    memory, pad = memory.repeat_interleave(beam, 0), pad.repeat_interleave(beam, 0)
    bias = torch.zeros(pad.shape).masked_fill(pad, float("-inf"))[:, None, None, :]
    layers = tf.decoder.layers
    cross = []
    for layer in layers:
        w, b = layer.multihead_attn.in_proj_weight, layer.multihead_attn.in_proj_bias
        cross.append((heads(F.linear(memory, w[d:2 * d], b[d:2 * d])), heads(F.linear(memory, w[2 * d:], b[2 * d:]))))
    self_k, self_v = [None] * len(layers), [None] * len(layers)
    ys = torch.full((n * beam, 1), BOS, dtype=torch.long)
    scores = torch.zeros(n, beam); scores[:, 1:] = float("-inf")
    for t in range(int(A * S + B)):
        x = emb(ys[:, -1]) * d ** .5
        for i, layer in enumerate(layers):
            q, k, v = F.linear(x, layer.self_attn.in_proj_weight, layer.self_attn.in_proj_bias).chunk(3, -1)
            k, v = heads(k[:, None]), heads(v[:, None])
            self_k[i] = k if self_k[i] is None else torch.cat([self_k[i], k], 2)
            self_v[i] = v if self_v[i] is None else torch.cat([self_v[i], v], 2)
            x = layer.norm1(x + layer.self_attn.out_proj(attend(heads(q[:, None]), self_k[i], self_v[i])))
            w, b = layer.multihead_attn.in_proj_weight, layer.multihead_attn.in_proj_bias
            q = heads(F.linear(x, w[:d], b[:d])[:, None])
            x = layer.norm2(x + layer.multihead_attn.out_proj(attend(q, cross[i][0], cross[i][1], bias)))
            x = layer.norm3(x + layer.linear2(F.relu(layer.linear1(x))))
        if tf.decoder.norm is not None:
            x = tf.decoder.norm(x)
        token, rows, scores = choose(torch.log_softmax(out(x), -1), scores, n, beam)
        ys = torch.cat([ys[rows], token[:, None]], 1)
        if beam > 1:
            self_k = [c[rows] for c in self_k]
            self_v = [c[rows] for c in self_v]
    return ys


order = sorted(lengths)
batches = [order[i:i + batch] for i in range(0, len(order), batch)]
with torch.no_grad():
    naive(batches[len(batches) // 2], 1, 0)  # warm-up
    cached(batches[len(batches) // 2], 1, 0)
    for beam in beams:
        same = torch.equal(naive(batches[0], beam, 0), cached(batches[0], beam, 0))
        for name, search in (("naive", naive), ("cached", cached)):
            t0 = time.time()
            for i, b in enumerate(batches):
                search(b, beam, i)
            dt = time.time() - t0
            tokens = sum(int(A * s + B) for s in lengths)
            print(f"beam {beam} {name}: {len(lengths)} sentences, {tokens} target tokens in {dt:.1f} s: "
                  f"{len(lengths) / dt:.2f} sentences/s, {tokens / dt:.1f} target tokens/s"
                  + (f" (same tokens as naive on the first batch: {same})" if name == "cached" else ""))
