#!/usr/bin/env python3
"""Writes scripts/bench-scale's section of BENCHMARKS.md.
usage: scale-report.py BENCHMARKS.md ROWS JOBS META
ROWS: the prepare rows, | pairs | vocab | tool | wall s | lines/s | peak RSS MiB | word types | run |; JOBS: the
other jobs' rows, | job | lines, or run | wall s | lines/s | peak RSS MiB | notes | run |; both as bench-scale keeps
them (the rows of earlier runs too). META: KEY=VALUE lines (seed, master, driver_memory, spm, cores).
scale-report.py --rows BENCHMARKS.md ROWS JOBS writes the section's rows into ROWS and JOBS (bench-scale seeds
its files so on a fresh checkout, keeping the rows of earlier runs)."""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

NAME = "bench-scale"
ROWS = ["pairs", "vocab", "tool", "wall s (train + encode)", "lines/s", "peak RSS MiB", "word types (learned from)",
        "run (UTC, load)"]
JOBS = ["job", "lines, or run", "wall s (train: to the first step)", "lines/s",
        "peak RSS MiB (train: by the first step)", "notes", "run (UTC)"]


def cells(path):
    return [[c.strip() for c in line.strip()[1:-1].split("|")] for line in open(path, encoding="utf-8")
            if line.startswith("|")]


def number(text):
    m = re.search(r"\d[\d,]*(\.\d+)?", text)
    return float(m.group(0).replace(",", "")) if m else None


def prepare_lines(rows):
    """Each tool's growth from its smallest to its largest size at one vocabulary, and prepare beside the peer."""
    out = []
    for vocab in sorted({r[1] for r in rows}, key=int):
        ours = sorted((r for r in rows if r[1] == vocab and r[2].startswith("sparknmt")), key=lambda r: int(r[0]))
        peer = sorted((r for r in rows if r[1] == vocab and r[2].startswith("spm")), key=lambda r: int(r[0]))
        if len(ours) > 1:
            a, b = ours[0], ours[-1]
            types = [number(r[6]) for r in (a, b)]
            out.append(f"- prepare at vocabulary {vocab}, {int(a[0]):,} to {int(b[0]):,} pairs: wall time per line "
                       f"{number(a[4]) / number(b[4]):.2f}x the smallest run's; peak RSS {number(b[5]) / number(a[5]):.2f}x "
                       f"({number(a[5]):,.0f} to {number(b[5]):,.0f} MiB) while the word types counted grew "
                       f"{types[1] / types[0]:.1f}x.")
        if len(peer) > 1:
            a, b = peer[0], peer[-1]
            stopped = " (stopped at SPM_LIMIT)" if b[3].startswith(">") else ""
            out.append(f"- spm_train + spm_encode at vocabulary {vocab}, {int(a[0]):,} to {int(b[0]):,} pairs: peak "
                       f"RSS {number(b[5]) / number(a[5]):.2f}x ({number(a[5]):,.0f} to {number(b[5]):,.0f} MiB){stopped}.")
        for o in ours:
            p = next((r for r in peer if r[0] == o[0]), None)
            if p:
                bound = "at least " if p[3].startswith(">") else ""
                out.append(f"- {int(o[0]):,} pairs at vocabulary {vocab}: prepare's lines/s {bound}"
                           f"{number(o[4]) / number(p[4]):.2f}x spm_train + spm_encode's, its peak RSS "
                           f"{number(o[5]) / number(p[5]):.2f}x.")
    return out


def job_lines(jobs):
    out = []
    train = {j[1]: j for j in jobs if j[0].startswith("train")}
    if "multi30k" in train and len(train) > 1:
        m = train["multi30k"]
        for name, j in sorted(train.items()):
            if name != "multi30k":
                out.append(f"- train to the first step, {name} pairs beside Multi30k: {number(j[2]) / number(m[2]):.2f}x "
                           f"the seconds, {number(j[4]) / number(m[4]):.2f}x the peak RSS.")
    translate = sorted((j for j in jobs if j[0] == "translate"), key=lambda j: number(j[1]))
    if len(translate) > 1:
        small, large = translate[0], translate[-1]
        out.append(f"- translate, {number(small[1]):,.0f} to {number(large[1]):,.0f} lines: peak RSS "
                   f"{number(large[4]) / number(small[4]):.2f}x ({small[4]} to {large[4]} MiB), lines/s "
                   f"{number(large[3]) / number(small[3]):.2f}x.")
    for kind in ("translate", "evaluate"):
        if not any(j[0] == kind for j in jobs):
            out.append(f"- No `{kind}` rows yet.")
    return out


def main():
    if sys.argv[1] == "--rows":
        path, rows_path, jobs_path = sys.argv[2:]
        body = bench_section.read(path, NAME)
        for file, header in ((rows_path, "| pairs |"), (jobs_path, "| job |")):
            open(file, "w", encoding="utf-8").write(
                "".join("| " + " | ".join(r) + " |\n" for r in bench_section.table_rows(body, header)))
        return
    path, rows_path, jobs_path, meta_path = sys.argv[1:]
    m = dict(line.rstrip("\n").split("=", 1) for line in open(meta_path, encoding="utf-8") if "=" in line)
    rows, jobs = cells(rows_path), cells(jobs_path)
    body = "\n".join([
        "## Prepare at scale",
        "",
        f"`scripts/bench-scale` (`SIZES` pairs at `VOCABS` subwords; `FIRST_STEP`, `TRANSLATE_LINES`, `EVALUATE_LINES` "
        f"for the second table): synthetic corpora of `scripts/make-corpus` (seed {m.get('seed', '?')}), "
        f"`sparknmt prepare` on `{m.get('master', '?')}` with the launcher's defaults ({m.get('driver_memory', '?')} "
        f"driver heap), beside `spm_train` + `spm_encode` (SentencePiece {m.get('spm', '?')}; BPE, byte fallback, "
        "coverage 0.9999, identity normalization, 2 threads) of both sides of the same files; `SPM_LIMIT` stops "
        "`spm_train` (its row then says so). Wall time and peak resident memory from GNU time. Each table keeps "
        "the rows of earlier runs (a size and vocabulary, or a job and size, run again replaces its row); each row "
        "gives its run's date and load average. pairs: good pairs of make-corpus, plus 14,000 bad lines; lines/s "
        "counts every line read.",
        "",
        bench_section.table(ROWS, ["---:", "---:", "---", "---:", "---:", "---:", "---", "---"], rows),
        "",
        "Second table. **train to first step**: the recipe's model (`conf/multi30k-en-de.conf`, the launcher's "
        "defaults) on the `FIRST_STEP`-pair corpus prepared with the recipe's settings and on Multi30k; seconds from "
        "the command's start to the first round's progress line, the peak RSS by then (local mode: driver and "
        "executors are one JVM). **translate**: the first lines of the 1,000,000-pair corpus's source side that are "
        "UTF-8 (translate refuses the invalid-utf8 class, naming the line), translated by the shipped sample's model. "
        "**evaluate**: the corpus's target side against a perturbed copy (every third line's second word changed, "
        "every fifth line's last word dropped), checked against Python sacrebleu on its "
        "first lines where it is installed. When the load average is above the cores "
        f"({m.get('cores', '?')} here), wall times say how the rows of one run compare, not how fast an idle host is.",
        "",
        bench_section.table(JOBS, ["---", "---:", "---:", "---:", "---:", "---", "---"], jobs),
        "",
        *prepare_lines(rows),
        *job_lines(jobs),
        "",
        "![time and peak resident memory against size](docs/images/bench-scale.png)",
        "",
        "What was run by hand at these sizes, and the evaluate run after its scoring change: "
        "[docs/notes/2026-12-04-benchmark-history.md](docs/notes/2026-12-04-benchmark-history.md#prepare-at-scale).",
    ])
    bench_section.write(path, NAME, body)


main()
