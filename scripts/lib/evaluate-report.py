#!/usr/bin/env python3
"""Writes scripts/bench-evaluate's section of BENCHMARKS.md.
usage: evaluate-report.py BENCHMARKS.md WORK META
WORK holds ours.time and peer.time (GNU time: "wall peak_kib user sys") and ours.out and peer.out (the BLEU
and chrF lines); peer.* are missing when no Python has sacrebleu. META: KEY=VALUE lines (lines, master,
machine, started, load_before, load_after, peer)."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

path, work, meta = sys.argv[1:]
m = dict(line.rstrip("\n").split("=", 1) for line in open(meta, encoding="utf-8") if "=" in line)
lines = int(m["lines"])


def measured(name):
    """(wall s, peak MiB, CPU s, user, sys, the scores' lines) of one side, or None when it did not run."""
    try:
        wall, kib, user, system = open(os.path.join(work, name + ".time")).read().split()[-4:]
        scores = [l.strip() for l in open(os.path.join(work, name + ".out"), encoding="utf-8") if l.strip()][:2]
    except (FileNotFoundError, ValueError):
        return None
    return float(wall), int(kib) // 1024, float(user) + float(system), float(user), float(system), scores


ours, peer = measured("ours"), measured("peer")
rows = []
for label, r in (("sparknmt evaluate", ours), (m.get("peer", "Python sacrebleu"), peer)):
    if r:
        rows.append([label, f"{r[0]:.1f}", f"{lines / r[0]:,.0f}", f"{r[2]:.1f} ({r[3]:.1f} + {r[4]:.1f})", f"{r[1]:,}",
                     "; ".join(f"`{s}`" for s in r[5])])
    else:
        rows.append([label, "not run", "", "", "", ""])
derived = []
if ours and peer:
    same = ours[5] == peer[5]
    derived = [f"- The BLEU and chrF lines are {'the same' if same else 'DIFFERENT'} on both sides.",
               f"- CPU seconds: sparknmt {ours[2] / peer[2]:.2f}x the peer's; wall {ours[0] / peer[0]:.2f}x; peak RSS "
               f"{ours[1] / peer[1]:.2f}x."]
bench_section.write(path, "bench-evaluate", "\n".join([
    "## Evaluation beside sacreBLEU", "",
    f"`scripts/bench-evaluate {lines} {m.get('master', '?')}`, {m.get('started', '?')}, {m.get('machine', '?')}, "
    f"load average {m.get('load_before', '?')} before and {m.get('load_after', '?')} after: `sparknmt evaluate` of "
    f"{lines:,} line pairs drawn with a fixed seed from the sacreBLEU test vectors (`../shared/testvectors/bleu`), "
    "beside Python sacrebleu's `corpus_bleu` and `corpus_chrf` on the same files in one process. Wall, CPU and peak "
    "resident memory from GNU time; sparknmt's include the JVM's and Spark's start. CPU seconds are the figure a "
    "loaded host changes least.", "",
    bench_section.table(["scorer", "wall s", "line pairs/s", "CPU s (user + sys)", "peak RSS MiB", "scores"],
                        ["---", "---:", "---:", "---:", "---:", "---"], rows),
    *([""] + derived if derived else [])]))
