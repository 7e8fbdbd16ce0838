#!/usr/bin/env python3
"""averaging-cost-model.py [PNG]: the fit share of a parameter-averaging round, modelled for
Transformer-base and -big at W = 8, 32 and 128 executors on 10 and 25 Gb/s links, with the round
reduced through the driver (every worker's state collected, as before the shuffle reduction) and
through Spark's shuffle (as now). Prints a Markdown table (k = 10 and the k that keeps 90 % of a round
fitting) and draws the fit share against k into PNG (default docs/images/averaging-cost-model.png;
needs matplotlib: Debian's python3-matplotlib). docs/operations.md ("Scaling: a cost model") names
where each input below was measured or that it is assumed.

averaging-cost-model.py --time-to-bleu BLEU [BENCH_DIR]: the wall time of the Multi30k recipe to val500
BLEU at W = 1, 8, 32 and 128 nodes of 2 cores on 10 Gb/s, fed with what scripts/bench-workers measured
(BENCH_DIR, default target/bench-workers): each W's epochs to that BLEU and its workers' step time.
"""
import math
import sys

# Measured: parameters (`sparknmt memory --conf conf/base.conf`, conf/big.conf, vocabulary 8000). A
# worker's training step on one core, modelled from measured constants: the matmul FLOPs of a step of
# the recipe's batches (1,316 target tokens a batch in base's production-size run; FlopCount at 14
# tokens a sentence: 290.4 M a target token for base, 1,109.2 M for big) at TrainBench small's
# 64.9 GFLOP/s on 2 threads (BENCHMARKS.md), 32.4 a core. Base's production-size run used at most
# 15.2 s of CPU a worker step (all of its 304 CPU seconds over its 20 worker steps).
MODELS = {
    "base": {"params": 48_234_496, "t_step": 11.8},
    "big": {"params": 184_549_376, "t_step": 45.0},
}
# Measured: what a round moves is the parameters and Adam's two moments, 12 bytes a parameter
# (driver_bytes_in of ReductionScalingBench: 8.96 MB a round for an 8.90 MB state, W = 1..8).
BYTES_PER_PARAM = 12
# Measured: a round's time outside its tasks on local-cluster, W = 1..8 (ReductionScalingBench:
# 0.16-2.42 s, median 0.56 s); assumed not to grow with W up to 128 (2W tasks a round).
T_SCHEDULE = 0.56
# Measured: Java serialization of a state's float arrays, one direction, one thread (RoundState: 87 MB
# written in 90-170 ms, read in 90-145 ms): 0.6 GB/s taken.
SERIALIZE = 0.6e9
# Spark's default spark.resultGetter.threads: the driver deserializes task results on 4 threads.
RESULT_GETTERS = 4
# SliceReducers.MAX_SLICE_BYTES
MAX_SLICE = 64 << 20
# Assumed: a link carries its nominal rate in each direction at once; the broadcast leaves the driver
# once (executors fetch its blocks from each other); shuffle files stay in the page cache.
LINKS_GBPS = (10, 25)
WORKERS = (8, 32, 128)


def round_overhead(state, workers, link_bytes_s, shuffle):
    """Seconds of a round outside the workers' fit, for W = E executors of one worker each."""
    broadcast = state / link_bytes_s + 2 * state / SERIALIZE  # driver writes, executors read
    if shuffle:
        slices = max(workers, math.ceil(state / MAX_SLICE))
        # each executor writes its state to the shuffle, then sends and receives (W-1)/W of one state
        # (its reducers own 1/W of the slices and fetch them from every worker); the driver gathers one
        exchange = state * (workers - 1) / workers / link_bytes_s + 2 * state / SERIALIZE
        gather = state / link_bytes_s + state / SERIALIZE / min(slices, RESULT_GETTERS) + state / workers / SERIALIZE
    else:
        # every executor's whole state crosses the driver's one link and its deserializers
        exchange = 0.0
        gather = workers * state / link_bytes_s + workers * state / SERIALIZE / RESULT_GETTERS + state / SERIALIZE
    return broadcast + exchange + gather + T_SCHEDULE


def fit_share(k, t_step, overhead):
    return k * t_step / (k * t_step + overhead)


def k_for(share, t_step, overhead):
    """The least k (steps a round) with at least this fit share."""
    return math.ceil(share / (1 - share) * overhead / t_step)


# The Multi30k recipe (conf/multi30k-en-de.conf): parameters, global batch, k, steps an epoch (measured:
# 29,000 pairs in batches of 3,000 tokens, whatever W, as the global batch is kept).
RECIPE_PARAMS = 7_577_600
RECIPE_GLOBAL_TOKENS = 3000
RECIPE_K = 10
RECIPE_STEPS_PER_EPOCH = 168
# Assumed: one worker on a node's 2 cores steps this much faster than on the one core a worker has in
# scripts/bench-workers' local[2].
TWO_THREAD_SPEEDUP = 1.6
NODES = (1, 8, 32, 128)


def measured_workers(bench_dir, bleu):
    """W -> (epochs to bleu or None, median seconds of a worker step on one core): the epochs of every wW
    variant (the recommended settings) that scripts/bench-workers left in bench_dir; the step time the
    least of any variant of that W (wW-plain and candidates too: the same step, whatever the outer settings,
    so the least disturbed run is taken)."""
    import csv, glob, json, os, re, statistics
    from collections import defaultdict
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    sys.dont_write_bytecode = True
    from importlib import import_module
    report = import_module("workers-report")
    epochs, step_s = {}, defaultdict(list)
    for results in glob.glob(os.path.join(bench_dir, "w*", "results.tsv")):
        name = os.path.basename(os.path.dirname(results))
        w = report.workers_of(name)
        if re.fullmatch(r"w\d+", name):
            curve = sorted((int(r["epoch"]), float(r["bleu"]), r)
                           for r in csv.DictReader(open(results, encoding="utf-8"), delimiter="\t"))
            epochs[w] = report.epochs_to(curve, bleu)
        rounds = [json.loads(l) for l in open(os.path.join(bench_dir, name, "run", "metrics", "train.jsonl")) if l.strip()]
        steps = []
        for previous, r in zip(rounds, rounds[1:]):
            k = r["step"] - previous["step"]
            wall = r["train_s"] - previous["train_s"]
            # the workers' summed fit seconds: fit_share is over the min(W, 2) workers fitting at once
            steps.append(r["fit_share"] * wall * min(w, 2) / (w * k))
        step_s[w].append(statistics.median(steps))
    return {w: (e, min(step_s[w])) for w, e in epochs.items()}


def time_to_bleu(bleu, bench_dir):
    """Prints the wall time to val500 BLEU by nodes: measured epochs where bench-workers ran that W, else the
    nearest W measured; a worker's step time measured at its batch, else the nearest W's at its seconds a token."""
    measured = measured_workers(bench_dir, bleu)
    if not measured:
        sys.exit(f"averaging-cost-model: no wW results in {bench_dir} (scripts/bench-workers writes them)")
    ws = sorted(measured)
    state = BYTES_PER_PARAM * RECIPE_PARAMS
    link = 10e9 / 8
    print(f"| nodes (W) | tokens a worker's batch | epochs to BLEU {bleu:g} | worker step (s) | round overhead (s) "
          f"| fit share | hours to BLEU {bleu:g} |")
    print("| ---: | ---: | --- | --- | ---: | ---: | ---: |")
    for w in NODES:
        tokens = RECIPE_GLOBAL_TOKENS / w
        # the measured W nearest in ratio (the larger on a tie): its epochs are assumed, and its step time
        # scaled to this W's batch at the same seconds a token (optimistic for smaller batches)
        nearest = min(ws, key=lambda m: (abs(math.log(m / w)), -m))
        one_core = measured[nearest][1] * nearest / w
        step_source = "measured" if nearest == w else f"W = {nearest}'s, scaled"
        epochs = measured[nearest][0]
        epoch_source = "measured" if nearest == w else f"W = {nearest}'s"
        t_step = one_core / TWO_THREAD_SPEEDUP
        overhead = round_overhead(state, w, link, True) if w > 1 else T_SCHEDULE
        round_s = RECIPE_K * t_step + overhead
        hours = "-" if epochs is None else f"{epochs * RECIPE_STEPS_PER_EPOCH / RECIPE_K * round_s / 3600:.2f}"
        reach = "not reached" if epochs is None else f"{epochs:.1f} ({epoch_source})"
        print(f"| {w} | {tokens:.0f} | {reach} | {t_step:.3f} ({step_source}) | {overhead:.2f} | "
              f"{100 * fit_share(RECIPE_K, t_step, overhead):.0f} % | {hours} |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--time-to-bleu":
        time_to_bleu(float(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "target/bench-workers")
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/images/averaging-cost-model.png"
    print("| model | link | W | round overhead before / after (s) | fit share at k = 10 before / after | k for 90 % before / after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, model in MODELS.items():
        state = BYTES_PER_PARAM * model["params"]
        for gbps in LINKS_GBPS:
            link = gbps * 1e9 / 8
            for w in WORKERS:
                before = round_overhead(state, w, link, False)
                after = round_overhead(state, w, link, True)
                print(f"| {name} | {gbps} Gb/s | {w} | {before:.1f} / {after:.1f} | "
                      f"{100 * fit_share(10, model['t_step'], before):.0f} % / {100 * fit_share(10, model['t_step'], after):.0f} % | "
                      f"{k_for(0.9, model['t_step'], before)} / {k_for(0.9, model['t_step'], after)} |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("averaging-cost-model: no matplotlib, no plot (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return
    ks = list(range(1, 101))
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5), sharex=True, sharey=True)
    colours = {8: "tab:blue", 32: "tab:orange", 128: "tab:red"}
    for row, gbps in enumerate(LINKS_GBPS):
        for col, (name, model) in enumerate(MODELS.items()):
            ax = axes[row][col]
            state = BYTES_PER_PARAM * model["params"]
            for w in WORKERS:
                for shuffle, style in ((False, "--"), (True, "-")):
                    overhead = round_overhead(state, w, gbps * 1e9 / 8, shuffle)
                    ax.plot(ks, [fit_share(k, model["t_step"], overhead) for k in ks], style, color=colours[w],
                            label=f"W = {w}, {'shuffle (now)' if shuffle else 'driver collects (before)'}")
            ax.set_xscale("log")
            ax.set_ylim(0, 1)
            ax.grid(True, which="both", alpha=0.3)
            ax.set_title(f"{name} ({model['params'] / 1e6:.1f} M parameters, {model['t_step']:.0f} s a step), {gbps} Gb/s",
                         fontsize=10)
            if row == 1:
                ax.set_xlabel("k, steps per averaging round")
            if col == 0:
                ax.set_ylabel("fit share of a round")
    axes[0][0].legend(fontsize=7, loc="lower right")
    fig.suptitle("Parameter averaging, modelled: fit share against k (measured constants, docs/operations.md)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"averaging-cost-model: wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
