#!/usr/bin/python3
"""Peer baseline for scripts/bench-train: PyTorch (Debian python3-torch 1.13) training throughput of an
encoder-decoder Transformer of a given size on random token batches, CPU. The project's copy of the
shared peer (../shared/bench/torch_peer_bench.py), so that the repository runs it alone.
usage: torch-train-bench.py D_MODEL HEADS FFN LAYERS VOCAB BATCH SEQ STEPS THREADS
prints: target tokens/s (non-pad) and ms/step."""
import sys, time, torch, torch.nn as nn
d, h, ffn, L, V, B, T, steps, th = map(int, sys.argv[1:10])
torch.set_num_threads(th); torch.manual_seed(0)
class M(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(V, d)
        s.tf = nn.Transformer(d, h, L, L, ffn, dropout=0.1, batch_first=True)
        s.out = nn.Linear(d, V, bias=False); s.out.weight = s.emb.weight
    def forward(s, src, tgt):
        m = s.tf.generate_square_subsequent_mask(tgt.size(1))
        return s.out(s.tf(s.emb(src) * d ** .5, s.emb(tgt) * d ** .5, tgt_mask=m))
m = M(); opt = torch.optim.Adam(m.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
loss_f = nn.CrossEntropyLoss(label_smoothing=0.1)
nparams = sum(p.numel() for p in m.parameters())
src = torch.randint(4, V, (B, T)); tgt = torch.randint(4, V, (B, T + 1))
def step():
    opt.zero_grad(); y = m(src, tgt[:, :-1]); l = loss_f(y.reshape(-1, V), tgt[:, 1:].reshape(-1)); l.backward(); opt.step()
for _ in range(2): step()
t0 = time.time()
for _ in range(steps): step()
dt = (time.time() - t0) / steps
print(f"params={nparams} ms/step={dt*1000:.1f} tgt_tokens/s={B*T/dt:.0f} flops_est_GFLOPs={6*nparams*B*T*2/dt/1e9:.1f}")
