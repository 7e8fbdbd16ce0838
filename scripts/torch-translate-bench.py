#!/usr/bin/python3
"""PyTorch peer for scripts/bench-translate: greedy and beam-search decoding speed of an encoder-decoder
Transformer of the given size (torch.nn.Transformer, like shared/bench/torch_peer_bench.py, random weights,
eval mode, no grad), CPU. The source sentences are random ids with the lengths in LENGTHS_FILE (one per
line: the subword lengths of the benchmark's input), in batches of BATCH sentences sorted by length (as
sparknmt translates a block). The weights are random, so EOS is ignored: every hypothesis runs to the
length limit A*|source|+B (sparknmt's default 1.5 and 10), the slow end, like a barely-trained model. As in
sparknmt's search, each step reruns the decoder over the whole prefix (no key/value cache).

usage: torch-translate-bench.py D_MODEL HEADS FFN LAYERS VOCAB LENGTHS_FILE BEAMS(1,4) BATCH THREADS
prints per beam: sentences, target tokens, seconds, sentences/s, target tokens/s (after a warm-up batch)."""
import sys, time, torch, torch.nn as nn

d, h, ffn, L, V = map(int, sys.argv[1:6])
lengths = [max(1, int(x)) for x in open(sys.argv[6]) if x.strip()]
beams = [int(b) for b in sys.argv[7].split(",")]
batch, threads = int(sys.argv[8]), int(sys.argv[9])
A, B = 1.5, 10
torch.set_num_threads(threads); torch.manual_seed(0)
emb = nn.Embedding(V, d)
tf = nn.Transformer(d, h, L, L, ffn, dropout=0.1, batch_first=True)
out = nn.Linear(d, V, bias=False); out.weight = emb.weight
for m in (emb, tf, out):
    m.eval()

def translate(src_lens, beam):
    """Decodes one batch; returns the number of target tokens emitted (each sentence to its own limit)."""
    n, S = len(src_lens), max(src_lens)
    src = torch.randint(4, V, (n, S))
    pad = torch.arange(S)[None, :] >= torch.tensor(src_lens)[:, None]
    memory = tf.encoder(emb(src) * d ** .5, src_key_padding_mask=pad)
    memory, pad = memory.repeat_interleave(beam, 0), pad.repeat_interleave(beam, 0)
    steps = int(A * S + B)
    ys = torch.full((n * beam, 1), 2, dtype=torch.long)  # BOS
    scores = torch.zeros(n, beam); scores[:, 1:] = float("-inf")
    for t in range(steps):
        mask = tf.generate_square_subsequent_mask(t + 1)
        y = tf.decoder(emb(ys) * d ** .5, memory, tgt_mask=mask, memory_key_padding_mask=pad)
        logp = torch.log_softmax(out(y[:, -1]), -1)
        if beam == 1:
            ys = torch.cat([ys, logp.argmax(-1, keepdim=True)], 1)
            continue
        top, idx = (scores.reshape(-1, 1) + logp).reshape(n, beam * V).topk(beam, -1)
        rows = (torch.arange(n)[:, None] * beam + torch.div(idx, V, rounding_mode="floor")).reshape(-1)
        ys = torch.cat([ys[rows], (idx % V).reshape(-1, 1)], 1)
        scores = top
    return sum(int(A * s + B) for s in src_lens)

order = sorted(lengths)
batches = [order[i:i + batch] for i in range(0, len(order), batch)]
with torch.no_grad():
    translate(batches[len(batches) // 2], 1)  # warm-up
    for beam in beams:
        t0 = time.time()
        tokens = sum(translate(b, beam) for b in batches)
        dt = time.time() - t0
        print(f"beam {beam}: {len(lengths)} sentences, {tokens} target tokens in {dt:.1f} s: "
              f"{len(lengths) / dt:.2f} sentences/s, {tokens / dt:.1f} target tokens/s")
