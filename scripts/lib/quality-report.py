#!/usr/bin/env python3
"""Writes scripts/bench-quality's results into BENCHMARKS.md and a plot.
usage: quality-report.py RESULTS.tsv MINUTES PLOT.png BENCHMARKS.md
The section between the "<!-- bench-quality -->" and "<!-- /bench-quality -->" markers of BENCHMARKS.md is
replaced (appended under a new "## Time to quality" heading when the markers are missing); the rest of the file
is kept."""
import csv, datetime, os, platform, sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

results, minutes, plot, benchmarks = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = list(csv.DictReader(open(results, encoding="utf-8"), delimiter="\t"))
curves = defaultdict(list)
for r in rows:
    curves[r["variant"]].append((float(r["train_minutes"]), float(r["bleu"]), int(r["epoch"]), r))
for c in curves.values():
    c.sort()


def best_by(curve, m):
    """The best val500 BLEU of the epochs finished within m training minutes."""
    seen = [b for t, b, _, _ in curve if t <= m + 1e-9]
    return max(seen) if seen else None


marks = sorted({round(minutes * f) for f in (0.25, 0.5, 0.75, 1.0)} - {0})
md = ["## Time to quality: the last `scripts/bench-quality` run", ""]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
md.append(f"`scripts/bench-quality {minutes:g}`, {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores "
          f"({cpu}). Each variant trained for {minutes:g} minutes of training (validation and checkpoints not counted), "
          "one after the other on this machine; BLEU is greedy sacreBLEU (13a, cased) on the first 500 Multi30k validation "
          "sentences (val500) after each epoch, ours and the peer's outputs scored by the same scorer. Load: the 1-, 5- and "
          "15-minute load averages when the variant's scoring started. Fit share: the median over the variant's rounds of "
          "the share of a round's wall time its workers spent fitting (`fit_share` in `metrics/train.jsonl`); driver MB "
          "in: the median bytes a round's results brought into the driver (`driver_bytes_in`).")
md.append("")
md.append("| variant | tokens/s | fit share | driver MB in a round | " + " | ".join(f"best BLEU by {m} min" for m in marks)
          + " | epochs | load |")
md.append("| --- | ---: | ---: | ---: | " + " | ".join("---:" for _ in marks) + " | ---: | --- |")
for name, c in curves.items():
    cells = [f"{best_by(c, m):.2f}" if best_by(c, m) is not None else "-" for m in marks]
    last = c[-1][3]
    share = last.get("fit_share") or "-"
    share = f"{100 * float(share):.0f} %" if share != "-" else share
    md.append(f"| {name} | {last['tokens_per_s']} | {share} | {last.get('driver_mb_in') or '-'} | " + " | ".join(cells)
              + f" | {len(c)} | {last['load']} |")
md.append("")
md.append("![val500 BLEU against training minutes](" + os.path.relpath(plot, os.path.dirname(os.path.abspath(benchmarks))) + ")")
md.append("")
md.append("Epoch by epoch (training minutes, val500 BLEU):")
md.append("")
for name, c in curves.items():
    md.append(f"- {name}: " + ", ".join(f"{e}: {t:.1f} min {b:.2f}" for t, b, e, _ in c))
bench_section.write(benchmarks, "bench-quality", "\n".join(md))

plt = bench_section.pyplot("quality-report", benchmarks)
os.makedirs(os.path.dirname(plot), exist_ok=True)
fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
for name, c in curves.items():
    ax.plot([0] + [t for t, _, _, _ in c], [0] + [b for _, b, _, _ in c], marker="o", markersize=3, label=name)
ax.set_xlabel("training minutes")
ax.set_ylabel("greedy val500 BLEU")
ax.set_xlim(0, minutes * 1.02)
ax.grid(alpha=0.3)
ax.legend()
ax.set_title("Multi30k en-de: BLEU against training time, 2 cores")
fig.tight_layout()
fig.savefig(plot)
print(f"quality-report: {plot} and {benchmarks} written")
