#!/usr/bin/env python3
"""averaging-cost-model.py [PNG]: the fit share of a parameter-averaging round, modelled for
Transformer-base and -big at W = 8, 32 and 128 executors on 10 and 25 Gb/s links, with the round
reduced through the driver (every worker's state collected, as before the shuffle reduction) and
through Spark's shuffle (as now). Prints a Markdown table (k = 10 and the k that keeps 90 % of a round
fitting) and draws the fit share against k into PNG (default docs/images/averaging-cost-model.png;
needs matplotlib: Debian's python3-matplotlib). docs/operations.md ("Scaling: a cost model") names
where each input below was measured or that it is assumed.
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


def main():
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
