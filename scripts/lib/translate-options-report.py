#!/usr/bin/env python3
"""Writes scripts/bench-translate's decoding options beside the searches they vary into BENCHMARKS.md.
usage: translate-options-report.py BENCHMARKS.md BENCH.out MODEL MACHINE DATE
BENCH.out: TranslateBenchmark's output (one summary line a search, "shortlist speed-up:" and the
"translate benchmark:" header); MODEL: the run and checkpoint; MACHINE: cores and CPU; DATE: the run's."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

path, out, model, machine, date = sys.argv[1:]
rows, speed_up, header = {}, None, ""
for line in open(out, encoding="utf-8"):
    m = re.match(r"(.+?): (\d+) sentences, (\d+) target tokens in ([\d.]+) s: ([\d.]+) sentences/s, ([\d.]+) target "
                 r"tokens/s, BLEU ([\d.]+), length ratio ([\d.]+), load average ([\d. ]+),", line)
    if m:
        rows[m[1]] = m
    elif line.startswith("shortlist speed-up:"):
        speed_up = line.split(":", 1)[1].strip()
    elif line.startswith("translate benchmark:"):
        header = line.split(":", 1)[1].strip()


def row(label, base):
    m, b = rows.get(label), rows.get(base)
    if not m:
        return f"| {label} | not run | | | | |"
    vs = f"{float(m[6]) / float(b[6]):.2f}x {base}" if b and base != label else ""
    return f"| {label} | {float(m[5]):.2f} | {float(m[6]):.1f} | {float(m[7]):.2f} ({m[8]}) | {m[3]} | {vs} |"


loads = [float(m[9].split()[0]) for m in rows.values()]
load = f"load average {min(loads):.1f}-{max(loads):.1f}" if loads else "load not recorded"
lines = ["| search | sentences/s | target tokens/s | BLEU (length ratio) | target tokens | tokens/s against |",
         "| --- | ---: | ---: | ---: | ---: | --- |",
         row("beam 1", "beam 1"), row("sample topk=10", "beam 1"), row("beam 4", "beam 4"),
         row("ensemble beam 4", "beam 4"), row("whole vocabulary beam 4", "whole vocabulary beam 4"),
         row("shortlist beam 4", "whole vocabulary beam 4")]
bench_section.write(path, "bench-translate-options", "\n".join([
    "## Decoding options", "",
    f"`scripts/bench-translate` on the Multi30k validation sentences with {model} ({header}), {date}, {machine}, "
    f"{load} over the rows: top-k 10 sampling (temperature 1, seed 0) beside beam 1; an ensemble of the run's last 2 "
    "checkpoints beside beam 4; beam 4 over the run's shortlist (`sparknmt shortlist`'s defaults: K 20, N 100) in "
    "turns with beam 4 over the whole vocabulary (one run of each, alternating, so a changing load weighs on both "
    "alike). Each row is the median of its runs. The length penalty is the recipe's, chosen on this same validation "
    "set, so its BLEU is not a held-out score; it shows that a faster search does not come from shorter outputs.",
    "", *lines, "",
    f"Shortlist speed-up: {speed_up or 'not run'}."]))
