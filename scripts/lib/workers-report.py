#!/usr/bin/env python3
"""Writes scripts/bench-workers' results into BENCHMARKS.md and a plot.
usage: workers-report.py RESULTS.tsv PLOT.png BENCHMARKS.md
The section between the "<!-- bench-workers -->" and "<!-- /bench-workers -->" markers of BENCHMARKS.md is
replaced (appended when the markers are missing); the rest of the file is kept."""
import csv, datetime, os, platform, re, sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

TARGETS = (25.0, 30.0)
SHOWN = 8  # epochs with a column of their own; longer runs get a table of every second epoch after these


def workers_of(name):
    """W of a variant named wW or wW-KIND."""
    return int(re.match(r"w(\d+)", name).group(1))


def epochs_to(curve, target):
    """Epochs to reach val500 BLEU target, linear between the epochs that straddle it; None when not reached."""
    previous_epoch, previous_bleu = 0, 0.0
    for epoch, bleu, _ in curve:
        if bleu >= target:
            return previous_epoch + (target - previous_bleu) / (bleu - previous_bleu) * (epoch - previous_epoch)
        previous_epoch, previous_bleu = epoch, bleu
    return None


def longer_runs(curves, names, shown, last_epoch):
    """The table of the variants trained past the shown epochs: BLEU and valid loss at every second epoch after
    them, and the best BLEU with its epoch."""
    later = list(range(shown + 2, last_epoch + 1, 2))
    if not later or later[-1] != last_epoch:
        later.append(last_epoch)
    md = [f"Longer runs: val500 BLEU (valid loss) after every second epoch past the {shown}th, and the best BLEU of "
          "any epoch with its epoch:", ""]
    md.append("| variant | " + " | ".join(f"epoch {e}" for e in later) + " | best BLEU (epoch) |")
    md.append("| --- | " + " | ".join("---:" for _ in later) + " | ---: |")
    for name in names:
        c = curves[name]
        if c[-1][0] <= shown:
            continue
        at = {e: (b, r.get("valid_loss", "-")) for e, b, r in c}
        cells = [f"{at[e][0]:.2f} ({at[e][1]})" if e in at else "-" for e in later]
        best_epoch, best_bleu, _ = max(c, key=lambda e: (e[1], -e[0]))
        md.append(f"| {name} | " + " | ".join(cells) + f" | {best_bleu:.2f} ({best_epoch}) |")
    md.append("")
    return md


def main(results, plot, benchmarks):
    curves = defaultdict(list)
    for r in csv.DictReader(open(results, encoding="utf-8"), delimiter="\t"):
        curves[r["variant"]].append((int(r["epoch"]), float(r["bleu"]), r))
    names = sorted(curves, key=lambda n: (workers_of(n), n))
    for c in curves.values():
        c.sort(key=lambda e: e[0])
    last_epoch = max(e for c in curves.values() for e, _, _ in c)
    epochs = min(last_epoch, SHOWN)
    reference = {t: epochs_to(curves["w2"], t) for t in TARGETS} if "w2" in curves else {}

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
               platform.machine())
    md = ["## Many workers: time to quality against W (`scripts/bench-workers`)", ""]
    md.append(f"`scripts/bench-workers`, {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores ({cpu}), "
              "`local[2]`. The Multi30k en-de recipe with its global batch of 3,000 target-side tokens kept: "
              "`data.max_tokens` = 3000 / W, k = 10, one variant after the other on this machine. `wW-plain` changes "
              "only W and the batch; `wW` is the recommended setting for W (`conf/multi30k-en-de-wW.conf`; W = 2 is the "
              "recipe, W = 1 one worker of 3,000 tokens); `wW-first` an earlier run of those settings, for the spread "
              "between two runs of one setting; any other `wW-NAME` is a candidate tried against it, "
              "described in [the many-workers note](docs/notes/2026-12-05-many-workers.md). BLEU: greedy sacreBLEU on the first 500 validation sentences "
              "(val500) after each epoch. Epochs to a BLEU: linear between the two epochs around it; the ratio is to "
              "W = 2's. Fit share: the median over rounds of the task slots' time spent fitting (with W above the 2 "
              "cores, the workers fit in waves). Load: the load averages when the variant's scoring started.")
    md.append("")
    head = "| variant | W | " + " | ".join(f"epoch {e}" for e in range(1, epochs + 1))
    md.append(head + " | epochs to 25 (ratio) | epochs to 30 (ratio) | fit share | tokens/s | load |")
    md.append("| --- | ---: | " + " | ".join("---:" for _ in range(epochs)) + " | ---: | ---: | ---: | ---: | --- |")
    for name in names:
        c = curves[name]
        by_epoch = {e: b for e, b, _ in c}
        cells = [f"{by_epoch[e]:.2f}" if e in by_epoch else "-" for e in range(1, epochs + 1)]
        reach = []
        for t in TARGETS:
            n = epochs_to(c, t)
            if n is None:
                reach.append(f"> {c[-1][0]}")
            else:
                ratio = f" ({n / reference[t]:.2f}x)" if reference.get(t) else ""
                reach.append(f"{n:.1f}{ratio}")
        last = c[-1][2]
        md.append(f"| {name} | {workers_of(name)} | " + " | ".join(cells) + " | " + " | ".join(reach)
                  + f" | {100 * float(last['fit_share']):.0f} % | {last['tokens_per_s']} | {last['load']} |")
    md.append("")
    md.append("Valid loss (the recipe's label-smoothed cross-entropy on the 1,014 validation pairs) by epoch:")
    md.append("")
    md.append("| variant | " + " | ".join(f"epoch {e}" for e in range(1, epochs + 1)) + " |")
    md.append("| --- | " + " | ".join("---:" for _ in range(epochs)) + " |")
    for name in names:
        loss = {e: r.get("valid_loss", "-") for e, _, r in curves[name]}
        md.append(f"| {name} | " + " | ".join(loss.get(e, "-") for e in range(1, epochs + 1)) + " |")
    md.append("")
    if last_epoch > epochs:
        md.extend(longer_runs(curves, names, epochs, last_epoch))
    md.append("![val500 BLEU by epoch against W](" + os.path.relpath(plot, os.path.dirname(os.path.abspath(benchmarks))) + ")")
    bench_section.write(benchmarks, "bench-workers", "\n".join(md))

    plt = bench_section.pyplot("workers-report", benchmarks)
    os.makedirs(os.path.dirname(plot), exist_ok=True)
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=110)
    colours = plt.get_cmap("tab20")
    for i, name in enumerate(names):
        c = curves[name]
        ax.plot([0] + [e for e, _, _ in c], [0] + [b for _, b, _ in c], marker="o", markersize=3,
                linestyle="--" if name.endswith("-plain") else "-", color=colours(i % 20), label=name)
    for t in TARGETS:
        ax.axhline(t, color="grey", linewidth=0.6)
    ax.set_xlabel("epoch")
    ax.set_ylabel("greedy val500 BLEU")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title("Multi30k en-de, global batch 3,000 tokens split over W workers")
    fig.tight_layout()
    fig.savefig(plot)
    print(f"workers-report: {plot} and {benchmarks} written")


if __name__ == "__main__":
    main(*sys.argv[1:4])
