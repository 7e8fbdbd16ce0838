#!/usr/bin/env python3
"""Writes BENCHMARKS.md from the KEY=VALUE lines that scripts/bench collected (scripts/lib/bench-env's
bench_result). usage: bench-report.py RESULTS OUT [PREVIOUS]: the sections that other bench-* scripts
write into PREVIOUS (the BENCHMARKS.md being replaced), each between "<!-- bench-NAME -->" and
"<!-- /bench-NAME -->" markers, are carried over at the end (paths as bench_section.relative writes them),
so a rerun of scripts/bench keeps them, and the header says what each compares. History is not kept here:
it goes in docs/notes/."""
import os, re, sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

results, out = sys.argv[1], sys.argv[2]
previous = sys.argv[3] if len(sys.argv) > 3 else None
r = {}
for line in open(results, encoding="utf-8"):
    if "=" in line:
        k, v = line.rstrip("\n").split("=", 1)
        r[k] = v


def num(key):
    try:
        return float(r[key])
    except (KeyError, ValueError):
        return None


def fmt(x, digits=0):
    if x is None:
        return "n/a"
    return f"{x:,.{digits}f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b not in (None, 0) else "n/a"


# The sections the other bench-* scripts own, and what each compares sparknmt with: the header says it for them
carried = []
if previous:
    try:
        text = open(previous, encoding="utf-8").read()
        carried = list(re.finditer(r"^<!-- (bench-[\w-]+) -->\n.*?^<!-- /\1 -->$", text, re.M | re.S))
    except OSError:
        pass
CARRIED_PEERS = {
    "bench-quality": "time to quality against one PyTorch process of the same model",
    "bench-scale": "prepare at scale against SentencePiece's `spm_train` + `spm_encode`, and evaluate's scores against "
                   "Python sacrebleu's (its train and translate rows have none)",
    "bench-train-scaling-reduction": "the driver's cost of averaging against W has no peer (the PyTorch peer trains "
                                     "in one process)",
    "bench-production": "the production sizes have none (they measure whether Transformer-base and -big fit here)",
    "bench-translate-options": "the decoding options are set against sparknmt's own beam search (the peer searches "
                               "only by beam)",
    "bench-workers": "many workers has none (W workers against 2; the PyTorch peer trains in one process)",
    "bench-quickstart": "the quickstart has none (its goals are a newcomer's: one command's time, memory and BLEU)",
}


def failed(step):
    return f"\n**{step} failed** (exit {r[step + '.failed']}; log: `target/bench/{step}.log`).\n" if step + ".failed" in r else ""


md = []
w = md.append
quick = r.get("mode") == "quick"
w("# Benchmarks")
w("")
w(f"Written by `scripts/bench{' --quick' if quick else ''}` ({r.get('elapsed_s', '?')} s). Where a peer does the same "
  "work, it is measured in the same run on the same machine, one after the other: PyTorch and NumPy for the GEMM "
  "peak, PyTorch for training throughput and translation, SentencePiece's `spm_encode` for subword encoding. "
  "Parameter averaging, the whole `prepare` and the start to the first training step have none: the PyTorch peer "
  "trains in one process, with no cluster start-up, and SentencePiece has no corpus pipeline.")
if carried:
    w("")
    w("The sections after those are their own scripts' (each names its script), from their own runs and dates: "
      + "; ".join(CARRIED_PEERS.get(m[1], f"`{m[1]}` says in its text") for m in carried) + ".")
if quick:
    w("")
    w("**Quick mode**: tiny sizes and a few steps, to check the script end to end. These numbers are not a benchmark.")
w("")
w("| | |")
w("| --- | --- |")
for key, label in [("date", "date (UTC)"), ("machine.cpu", "CPU"), ("machine.cores", "cores"),
                   ("machine.memory", "memory"), ("machine.avx512", "AVX-512 flags"),
                   ("load.before", "load average before (1, 5, 15 min)"), ("load.after", "load average after"),
                   ("version.sparknmt", "sparknmt"), ("version.java", "Java"), ("version.spark", "Spark"),
                   ("version.dl4j", "DL4J / ND4J"), ("version.nd4j", "ND4J backend"), ("version.blas", "ND4J BLAS"),
                   ("version.torch", "PyTorch (peer)"), ("version.torch_blas", "PyTorch / NumPy BLAS"),
                   ("version.numpy", "NumPy"), ("version.sentencepiece", "SentencePiece (peer)")]:
    w(f"| {label} | {r.get(key, 'n/a')} |")
w("")
w("A load average well above the core count means other processes shared the CPUs: the absolute numbers "
  "are then low and noisy, and only the ratios of the side-by-side runs mean something (even those only roughly: "
  "PyTorch's OpenMP threads spin while they wait; in one check under load, `OMP_WAIT_POLICY=PASSIVE` made its "
  "decoding several times faster, so the peer likely loses more than sparknmt on a busy machine).")

# GEMM peak
w("")
w("## GEMM peak")
w("")
n = r.get("gemm.n", "?")
w(f"Float GEMM {n}x{n} · {n}x{n}, best of {r.get('gemm.repeats', '?')} after two warm-up products (GFLOP/s). "
  "ND4J is what sparknmt computes with (`scripts/bench-gemm`, `org.sparknmt.bench.GemmPeak`, the launcher's ND4J "
  "build); PyTorch and NumPy (`/usr/bin/python3`) cross-check it.")
w(failed("gemm"))
w("| threads | ND4J (sparknmt) | PyTorch | NumPy | ND4J / PyTorch |")
w("| --- | --- | --- | --- | --- |")
for t in (1, 2):
    a, b, c = num(f"gemm.nd4j.t{t}"), num(f"gemm.torch.t{t}"), num(f"gemm.numpy.t{t}")
    w(f"| {t} | {fmt(a, 1)} | {fmt(b, 1)} | {fmt(c, 1)} | {ratio(a, b)} |")
peaks = [x for x in (num("gemm.nd4j.t2"), num("gemm.torch.t2"), num("gemm.numpy.t2")) if x]
peak = max(peaks) if peaks else None
w("")
w(f"Machine peak used below: the best 2-thread figure, {fmt(peak, 1)} GFLOP/s.")

# Training
w("")
w("## Training throughput")
w("")
w(f"`scripts/bench-train CONFIG {r.get('train.vocab', '?')} {r.get('train.batch', '?')} {r.get('train.seq', '?')} "
  f"{r.get('train.steps', '?')} 2`: sparknmt's `TrainBench` (`ComputationGraph.fit` on a fixed random batch of "
  f"{r.get('train.batch', '?')} pairs x {r.get('train.seq', '?')} tokens, vocab {r.get('train.vocab', '?')}, tied "
  "embeddings, label smoothing 0.1, Adam, 2 threads) against `scripts/torch-train-bench.py` at the same size, batch "
  f"and threads, after 2 warm-up steps, {r.get('train.small.repeats', '1')} times each, alternating (sparknmt, then the peer): "
  "the medians, and the range of the pairs' ratios. The peer's speed varies between runs minutes apart and falls "
  "far more than sparknmt's under load, so one pair's ratio is good to about a third ([a same-run comparison of "
  "two commits](docs/notes/2026-12-06-throughput-ratio.md)). Peak RSS: the largest of each side's runs, the whole process (GNU time). FLOPs: the matmuls of the forward pass "
  "(Q/K/V/output projections, attention scores and weighted values over the full length, cross-attention, FFN, the "
  "output projection onto the vocabulary) x 3 for forward + backward (`org.sparknmt.bench.FlopCount`); "
  "embeddings, softmax, layer norm, loss and the optimizer are not counted. The count is the same for both systems.")
for size in r.get("train.sizes", "").split():
    k = f"train.{size}"
    w("")
    w(f"### {size} ({r.get(k + '.dims', '')}, {fmt(num(k + '.params'))} parameters in sparknmt, "
      f"{fmt(num(k + '.peer.params'))} in PyTorch)")
    w(failed(k))
    flops = num(k + ".flops_per_token")
    a, b = num(k + ".ours.tokens_s"), num(k + ".peer.tokens_s")
    ga = a * flops / 1e9 if a and flops else None
    gb = b * flops / 1e9 if b and flops else None
    w("| | sparknmt | PyTorch | sparknmt / PyTorch |")
    w("| --- | --- | --- | --- |")
    w(f"| target tokens/s (median) | {fmt(a)} | {fmt(b)} | {ratio(a, b)} (pairs: {r.get(k + '.ratio_range', 'n/a')}) |")
    w(f"| ms/step | {fmt(num(k + '.ours.ms_step'), 1)} | {fmt(num(k + '.peer.ms_step'), 1)} | "
      f"{ratio(num(k + '.ours.ms_step'), num(k + '.peer.ms_step'))} |")
    w(f"| peak RSS, MiB | {fmt(num(k + '.ours.rss_mib'))} | {fmt(num(k + '.peer.rss_mib'))} | "
      f"{ratio(num(k + '.ours.rss_mib'), num(k + '.peer.rss_mib'))} |")
    w(f"| matmul GFLOP/s ({fmt(flops / 1e6 if flops else None, 2)} MFLOP per target token) | {fmt(ga, 2)} | {fmt(gb, 2)} | {ratio(ga, gb)} |")
    w(f"| % of the GEMM peak ({fmt(peak, 1)} GFLOP/s) | {fmt(100 * ga / peak if ga and peak else None, 1)} % | "
      f"{fmt(100 * gb / peak if gb and peak else None, 1)} % | |")

# Scaling
w("")
w("## Parameter averaging: overhead and scaling")
w("")
w(f"`scripts/bench-train-scaling {r.get('scaling.steps', '?')} {r.get('scaling.args', '')}` on `local-cluster[2,1,3072]` "
  "(one core per executor, `OMP_NUM_THREADS=1`), the first round of each setting left out: it builds the workers, "
  "which the executors keep from round to round. fit = the workers' `fit` time; other = the rest of the round but "
  "the workers' reading of their batches: the broadcast of the averaged state, the averaging through the shuffle "
  "(each worker's state cut into slices that the executors average, the driver taking in the mean) and Spark's "
  "scheduling. No peer: the PyTorch peer trains in one process (its counterpart, `DistributedDataParallel` across "
  "processes, is not in the shared bench).")
w(failed("scaling"))
w("| k (steps per round) | 1 worker tokens/s | 2 workers tokens/s | speed-up 2/1 | fit 1 / 2 workers | other 1 / 2 workers | s per round 1 / 2 workers |")
w("| --- | --- | --- | --- | --- | --- | --- |")
for kk in (1, 5, 20):
    one, two = f"scaling.w1.k{kk}", f"scaling.w2.k{kk}"
    if one + ".tokens" not in r and two + ".tokens" not in r:
        continue
    w(f"| {kk} | {fmt(num(one + '.tokens'))} | {fmt(num(two + '.tokens'))} | {ratio(num(two + '.tokens'), num(one + '.tokens'))} | "
      f"{r.get(one + '.fit', 'n/a')} % / {r.get(two + '.fit', 'n/a')} % | {r.get(one + '.other', 'n/a')} % / "
      f"{r.get(two + '.other', 'n/a')} % | {r.get(one + '.round', 'n/a')} / {r.get(two + '.round', 'n/a')} |")

# Encode
w("")
w("## Prepare and subword encoding")
w("")
sent, vocab = num("encode.sentences"), r.get("encode.vocab", "?")
w(f"`scripts/bench-prepare` (vocab {vocab}): encoding {fmt(sent)} sentences (the Multi30k en+de training text, "
  f"x{r.get('encode.repeat', '?')}) with sparknmt's `BpeEncoder` (from strings in memory, best of 5 passes, "
  "a fresh word cache each pass) and with SentencePiece's `spm_encode` (a BPE model of the same vocabulary size "
  "trained with `spm_train` on the same text, identity normalization, byte fallback; from a file to ids, best of 3; "
  "2 cores = two processes on the two halves). tokens/s = sentences/s x each one's own tokens per sentence.")
w(failed("prepare"))
ot, pt = num("encode.ours.tokens"), num("encode.peer.tokens")
tps = lambda s, t: s * t / sent if s and t and sent else None
w("| | sparknmt sentences/s | sparknmt tokens/s | spm_encode sentences/s | spm_encode tokens/s | ratio (sentences/s) |")
w("| --- | --- | --- | --- | --- | --- |")
for c in (1, 2):
    a, b = num(f"encode.ours.t{c}"), num(f"encode.peer.t{c}")
    w(f"| encode, {c} core{'s' if c > 1 else ''} | {fmt(a)} | {fmt(tps(a, ot))} | {fmt(b)} | {fmt(tps(b, pt))} | {ratio(a, b)} |")
for c in (1, 2):
    a, b = num(f"encode.ours_norm.t{c}"), num(f"encode.peer.t{c}")
    w(f"| NFC + whitespace + encode, {c} core{'s' if c > 1 else ''} | {fmt(a)} | {fmt(tps(a, ot))} | (as above) {fmt(b)} | {fmt(tps(b, pt))} | {ratio(a, b)} |")
w("")
w(f"Tokens per sentence: sparknmt {fmt(ot / sent if ot and sent else None, 2)}, spm_encode {fmt(pt / sent if pt and sent else None, 2)}. "
  f"Whole `sparknmt prepare` of Multi30k en-de ({fmt(num('prepare.pairs'))} pairs, `local[2]`): "
  f"{fmt(num('prepare.wall_pairs_s'))} pairs/s wall (JVM and Spark start included), "
  f"{fmt(num('prepare.stages_pairs_s'))} pairs/s in the job's stages (no peer: SentencePiece has no corpus pipeline).")

# Translate
w("")
w("## Translation")
w("")
batch = r.get("translate.batch", "?")  # bench-translate's BATCH, the same for both sides
w(f"`scripts/bench-translate` on {fmt(num('translate.sentences'))} Multi30k validation sentences, `local[2]` "
  f"(two partitions, batches of {batch} sentences), incremental decoding, after a warm-up pass, the median of its "
  f"runs: {r.get('translate.model', '?')} (d_model 256, 4 heads, FFN 1024, 3+3 layers, vocab 8000), length penalty "
  "2.0. Peer: `scripts/torch-translate-bench.py`, the same size in PyTorch (random weights, EOS ignored: every output "
  f"to the limit 1.5·|source|+10, so it has no BLEU; batches of {batch} sentences sorted by length, 2 threads), naive "
  "(the whole prefix each step) and cached (keys and values kept), source lengths from a SentencePiece BPE of the "
  "same vocabulary size. Target tokens exclude EOS; the output lengths differ, so tokens/s is the comparison.")
w(failed("translate"))
w("| search | sparknmt sentences/s | sparknmt tokens/s | sparknmt BLEU | PyTorch naive tokens/s | PyTorch cached tokens/s | "
  "ratio (tokens/s, vs cached) |")
w("| --- | --- | --- | --- | --- | --- | --- |")
for beam in (1, 4):
    k = f"translate.b{beam}"
    a, b = num(k + ".ours.tokens_s"), num(k + ".peer_cached.tokens_s")
    w(f"| beam {beam} | {fmt(num(k + '.ours.sentences_s'), 2)} | {fmt(a, 1)} | {fmt(num(k + '.ours.bleu'), 2)} | "
      f"{fmt(num(k + '.peer_naive.tokens_s'), 1)} | {fmt(b, 1)} | {ratio(a, b)} |")
w("")
w(f"Target tokens emitted by sparknmt: {fmt(num('translate.b1.ours.tokens'))} (beam 1), "
  f"{fmt(num('translate.b4.ours.tokens'))} (beam 4).")
w("")
w(f"Peak resident memory (GNU time, the launcher's memory settings, all runs of both beams in one process each): "
  f"sparknmt {fmt(num('translate.ours.rss_mib'))} MiB (the JVM, Spark local mode included), PyTorch "
  f"{fmt(num('translate.peer.rss_mib'))} MiB; ratio {ratio(num('translate.ours.rss_mib'), num('translate.peer.rss_mib'))}. "
  f"`sparknmt memory --source-length {fmt(num('translate.longest_source'))}` (this input's longest source in subwords) "
  f"plans {fmt(num('translate.ours.planned_mib'))} MiB for the largest of those searches (beam 4, an ensemble of two "
  f"checkpoints): planned over measured {ratio(num('translate.ours.planned_mib'), num('translate.ours.rss_mib'))}. "
  "The launcher, which does not read the input, plans for `data.max_subwords` instead.")
w("")
w(f"`sparknmt translate --beam 4` as a user runs it (its own process, the launcher's defaults: the memory it plans "
  f"from the model, translate's batch size and partitions) on the same input: peak {fmt(num('translate.cli.rss_mib'))} "
  f"MiB against PyTorch's {fmt(num('translate.peer.rss_mib'))} MiB, ratio "
  f"{ratio(num('translate.cli.rss_mib'), num('translate.peer.rss_mib'))}. `sparknmt memory --source-length "
  f"{fmt(num('translate.longest_source'))}` plans {fmt(num('translate.cli.planned_mib'))} MiB for it, planned over "
  f"measured {ratio(num('translate.cli.planned_mib'), num('translate.cli.rss_mib'))}; the launcher, planning for "
  f"`data.max_subwords`, allowed {fmt(num('translate.cli.launcher_mib'))} MiB (a cap: JavaCPP's and the heap's "
  "limits, not memory taken).")

# First step
w("")
w("## From start to the first training step")
w("")
w(f"`scripts/bench-first-step [--cluster] conf/{r.get('first_step.conf', '?')}`: `scripts/sparknmt train` on the "
  "shipped sample (prepared beforehand, vocab 2000), one averaging round of one step; each phase ends at the job's "
  "log line that marks it, stamped as it is read and looked for only after the previous phase's line. `local[2]`: "
  "the launcher runs the job in its own JVM (no `spark-submit`). `spark://`: `spark-submit` to a standalone cluster of 2 one-core workers on this machine "
  "(`scripts/cluster`, started beforehand, not timed), so the time includes the submit JVM, the application's "
  "registration and the executors' launch with their copy of the application jar. No peer: the PyTorch peer has "
  "no cluster start-up.")
w(failed("first_step") + failed("first_step_cluster"))
w("| phase | `local[2]` (s) | `spark-submit` to `spark://` (s) |")
w("| --- | --- | --- |")
for key, label in [("jvm_s", "JVM start + configuration parsed"), ("spark_model_s", "Spark context + model built"),
                   ("data_s", "data load (valid batches collected, training batches counted)"),
                   ("step_s", "first step (broadcast, fit, average)"), ("total_s", "**start to first step**"),
                   ("command_s", "whole command (+ validation, checkpoint, exit)")]:
    w(f"| {label} | {fmt(num('first_step.' + key), 2)} | {fmt(num('first_step_cluster.' + key), 2)} |")

w("")
w("Earlier records of what was tried and measured are dated notes in [docs/notes/](docs/notes/).")
for section in carried:
    w("")
    w(section.group(0))
open(out, "w", encoding="utf-8").write(bench_section.relative("\n".join(md)) + "\n")
