#!/usr/bin/env python3
"""Writes the W sweep of scripts/bench-train-scaling (SCALING_PART=reduction, or all) into BENCHMARKS.md.
usage: reduction-report.py BENCHMARKS.md REDUCTION.out META
REDUCTION.out: ReductionScalingBench's rows under the script's header line (workers executors rounds driver-MB
peak-heap-MiB after-GC-MiB shuffle-written-MB shuffle-read-MB sched-s). META: KEY=VALUE lines (command, started,
ended, loads, machine, model, parameters, vocabulary, word_types, batches, driver_heap, executor_mb)."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

path, out, meta_file = sys.argv[1:]
m = {}
for line in open(meta_file, encoding="utf-8"):
    if "=" in line:
        k, v = line.rstrip("\n").split("=", 1)
        m[k] = v
rows = [line.split() for line in open(out, encoding="utf-8") if len(line.split()) == 9 and line.split()[0].isdigit()]
cols = list(zip(*rows)) if rows else [()] * 9
workers = [int(x) for x in cols[0]]
driver, heap, live, written = ([float(x) for x in cols[i]] for i in (3, 4, 5, 6))
loads = [float(x) for x in m.get("loads", "").split()]
params = int(m["parameters"]) if m.get("parameters", "").isdigit() else None
cores = int(m.get("cores", "0") or 0)

lines = [
    "## Averaging through the shuffle: driver cost against W",
    "",
    f"`{m.get('command', 'SCALING_PART=reduction scripts/bench-train-scaling')}` ({m.get('started', '?')} to "
    f"{m.get('ended', '?')}, {m.get('machine', '?')}, load average {min(loads):.0f}-{max(loads):.0f} over the runs): "
    f"`local-cluster[W,1,{m.get('executor_mb', '?')}]`, one worker per one-core executor, k = 1, a tiny model "
    f"({m.get('model', '?')}, a vocabulary of {int(m['vocabulary']):,} subwords from {int(m['word_types']):,} word types"
    + (f": {params:,} parameters, {12 * params / 1e6:.2f} MB with Adam's two moments" if params else "") + "), "
    f"the shipped sample's {m.get('batches', '?')} batches, a {m.get('driver_heap', '?')} driver heap, one JVM per "
    "row; the first round of each is left out. Driver MB is the train job's own `driver_bytes_in` (Spark's "
    "`TaskMetrics.resultSize` over the round's tasks); peak heap is the sum of the driver's heap pools' peaks during "
    "training, garbage included; after GC the most the heap held right after any collection; shuffle bytes are the "
    "most any one executor wrote and read a round; sched the round job's wall time less each stage's longest task.",
    "",
    "How to read it: averaging through the shuffle brings the driver one averaged state a round plus the tasks' "
    "statuses, whatever W; collecting the workers' states would bring it W states. Each executor writes one "
    "worker's state to the shuffle and reads W slices of 1/S of it (S = W here), one state's worth whatever W. "
    "The heap after a collection depends on when G1 happened to collect. With more executors than cores"
    + (f" ({cores} here)" if cores else "") + " the times say nothing about speed; only bytes and memory are "
    "meaningful.",
    "",
    bench_section.table(
        ["workers", "executors", "rounds measured", "driver MB a round", "peak heap MiB", "after GC MiB",
         "shuffle written MB an executor a round", "shuffle read MB an executor a round", "scheduling s a round"],
        ["---:"] * 9, rows),
]
if rows:
    lines += [
        "",
        f"- Driver MB a round: {min(driver):.2f}-{max(driver):.2f}, within {bench_section.spread(driver):.1f} % "
        f"from W = {min(workers)} to {max(workers)}"
        + (f"; one averaged state is {12 * params / 1e6:.2f} MB, so the rest is {1000 * (min(driver) - 12 * params / 1e6):.0f}-"
           f"{1000 * (max(driver) - 12 * params / 1e6):.0f} kB; collecting every worker's state would be "
           f"{max(workers) * 12 * params / 1e6:.0f} MB at W = {max(workers)}" if params else "") + ".",
        f"- Peak heap: {min(heap):.1f}-{max(heap):.1f} MiB, within {bench_section.spread(heap):.0f} %; at W = "
        f"{max(workers)} {heap[workers.index(max(workers))] / heap[workers.index(min(workers))]:.2f}x W = {min(workers)}'s.",
        f"- After GC: {min(live):.1f}-{max(live):.1f} MiB, the most at W = {workers[live.index(max(live))]}.",
        f"- Shuffle written an executor a round: {min(written):.2f}-{max(written):.2f} MB.",
    ]
lines += ["", "Earlier runs of this sweep: [docs/notes/2026-12-04-benchmark-history.md]"
          "(docs/notes/2026-12-04-benchmark-history.md#averaging-through-the-shuffle)."]
bench_section.write(path, "bench-train-scaling-reduction", "\n".join(lines))
