#!/usr/bin/env python3
"""Writes scripts/bench-quickstart's section of BENCHMARKS.md.
usage: quickstart-report.py BENCHMARKS.md META
META: KEY=VALUE lines (commit, started, load_before, load_after, exit, wall_s, build_s, peak_kib, steps, bleu). The
section keeps the rows of earlier runs, the newest first, up to KEEP of them."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

KEEP = 5
NAME = "bench-quickstart"
HEADER = ["date", "commit", "exit", "wall, build included", "of which the build", "training steps", "BLEU", "peak resident", "load before / after"]

path, meta = sys.argv[1:]
m = dict(line.rstrip("\n").split("=", 1) for line in open(meta, encoding="utf-8") if "=" in line)
wall = float(m["wall_s"])
kib = int(m["peak_kib"])
bleu = re.match(r"BLEU = ([0-9.]+)", m.get("bleu", ""))
row = [m["started"], m["commit"], m["exit"], f"{int(wall // 60)}:{int(wall % 60):02d}",
       f"{int(m['build_s']) // 60}:{int(m['build_s']) % 60:02d}" if m.get("build_s") else "not built", m.get("steps") or "none",
       bleu.group(1) if bleu else "none", f"{kib:,} KiB ({kib * 1024 / 1e9:.2f} GB)",
       f"{m['load_before']} / {m['load_after']}"]
earlier = bench_section.table_rows(bench_section.read(path, NAME), "| date")
rows = [row] + [r for r in earlier if len(r) == len(HEADER)][:KEEP - 1]

goals = ("Goals: at most 12 minutes with the build, under 3.0 GB (decimal) at the peak, BLEU at least 25. "
         f"This run: {row[3]} ({'met' if wall <= 720 else 'MISSED'}), "
         f"{kib * 1024 / 1e9:.2f} GB ({'met' if kib * 1024 < 3e9 else 'MISSED'}), "
         f"BLEU {bleu.group(1) if bleu else 'none'} ({'met' if bleu and float(bleu.group(1)) >= 25 else 'MISSED'}).")
body = "\n".join([
    "## Quickstart: a fresh clone as a newcomer runs it (`scripts/bench-quickstart`)",
    "",
    f"`scripts/bench-quickstart`, {m['started']}, {bench_section.machine()}: a fresh clone of the commit, an empty "
    "Maven cache and home folder, then `scripts/quickstart` (the build, every dependency downloaded from Maven "
    "Central, up to the launcher's jars; the embedded HDFS; prepare of the shipped Tatoeba de-en; 8 training minutes in `local[2]`; translate "
    "and evaluate). Wall and peak: GNU time over the whole command (the peak is its largest process, the training "
    "JVM). BLEU: sacreBLEU, beam 4, on the quickstart's 1,000 seeded validation pairs. Training steps depend on "
    "the load, which the row gives. No peer: the goals are a newcomer's, and no other tool runs this pipeline in "
    "one command.",
    "",
    bench_section.table(HEADER, ["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---"], rows),
    "",
    goals,
])
bench_section.write(path, NAME, body)
