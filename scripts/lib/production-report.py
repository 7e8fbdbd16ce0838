#!/usr/bin/env python3
"""Writes scripts/bench-production's section of BENCHMARKS.md.
usage: production-report.py BENCHMARKS.md [RESULT_DIR ...]
Each RESULT_DIR is one run of scripts/bench-production: "meta" (KEY=VALUE lines: model, master, settings,
heap, native, planned, started, load_before, load_after, machine, run, steps), "time.txt" (GNU time -v) and
"train.log" for a local run, or "yarn.log" (the "yarn production:" line of ProductionSizeYarnIT) for YARN.
The section's table keeps the rows of earlier runs; a run of the same model, master and settings replaces
its row. Without RESULT_DIR the section is written again from its own rows; a row of an earlier table without
the plan's columns gets them from its heap and ND4J cells (the plan they name)."""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_section  # noqa: E402

NAME = "bench-production"
HEADER = ["model", "master", "settings", "parameters", "driver heap MiB", "ND4J cap MiB (plan)", "run", "result", "steps",
          "peak resident MiB", "planned MiB (heap + native)", "peak / planned", "wall", "CPU s (user + sys)",
          "driver_bytes_in a round"]
ALIGN = ["---", "---", "---", "---:", "---", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---"]
PEAK = HEADER.index("peak resident MiB")


def meta(directory):
    m = {}
    for line in open(os.path.join(directory, "meta"), encoding="utf-8"):
        if "=" in line:
            k, v = line.rstrip("\n").split("=", 1)
            m[k] = v
    return m


def jsonl(path):
    try:
        return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    except FileNotFoundError:
        return []


def local_row(d, m):
    """A local run's row from GNU time -v, the job's log and the run's metrics."""
    t = open(os.path.join(d, "time.txt"), encoding="utf-8").read()
    log = open(os.path.join(d, "train.log"), encoding="utf-8", errors="replace").read()

    def field(label):
        hit = re.search(rf"^\s*{re.escape(label)}: (.+)$", t, re.M)
        return hit.group(1).strip() if hit else None

    signal = re.search(r"Command terminated by signal (\d+)", t)
    status = int(field("Exit status") or -1)
    error = re.search(r"(java\.lang\.OutOfMemoryError[^\n]*|[\w.]+Exception: [^\n]{0,120})", log)
    if signal:
        result = f"killed by signal {signal.group(1)}"
    else:
        result = f"exit {status}"
    if error and status != 0:
        result += f": `{error.group(1).strip()}`"
    rounds = jsonl(os.path.join(m["run"], "metrics", "train.jsonl"))
    valid = jsonl(os.path.join(m["run"], "metrics", "valid.jsonl"))
    if status == 0 and valid:
        result += f"; valid loss {valid[-1]['loss']:.2f}"
    params = re.search(r"(\d+) parameters; vocabulary", log)
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)") or "?"
    cpu = (float(field("User time (seconds)") or 0), float(field("System time (seconds)") or 0))
    steps = f"{rounds[-1]['step']} ({counted(len(rounds), 'round')})" if rounds else "0"
    peak = int(field("Maximum resident set size (kbytes)") or 0) // 1024
    planned = [int(x) for x in m.get("planned", "").split()]
    return [m["model"], m["master"], m["settings"], f"{int(params.group(1)):,}" if params else "?", m["heap"],
            m["native"], run_cell(m), result, steps, f"{peak:,}", *plan_cells(planned, peak), wall.split(".")[0], f"{cpu[0] + cpu[1]:.0f} ({cpu[0]:.0f} + {cpu[1]:.0f})",
            "; ".join(f"{r['driver_bytes_in']:,}" for r in rounds if r.get("driver_bytes_in", -1) >= 0) or "-"]


def yarn_row(d, m):
    """ProductionSizeYarnIT's row from its "yarn production:" line."""
    line = next((l for l in open(os.path.join(d, "yarn.log"), encoding="utf-8", errors="replace")
                 if "yarn production:" in l), None)
    if line is None:
        return [m["model"], m["master"], m["settings"], "?", m["heap"], m["native"], run_cell(m),
                "failed (no result line; see the test's output)", "?", "?", "-", "-", "?", "-", "-"]
    hit = re.search(r"(\d+) parameters, data\.max_tokens (\d+): prepared in (\d+) s; trained (\d+) rounds \((\d+) steps, "
                    r"(\d+) executors\) in (\d+) s; driver_bytes_in \[([\d, ]+)\]; executors' peak resident \[([\d, ]+)\] MiB"
                    r"(?:; the driver's \[([\d, ]*)\] MiB)?", line)
    params, _, prepared, rounds, steps, _, trained, received, peaks, driver = hit.groups()
    peak = "executor" + ("s " if ", " in peaks else " ") + " and ".join(f"{int(p):,}" for p in peaks.split(", "))
    if driver:
        peak += "; driver " + " and ".join(f"{int(p):,}" for p in driver.split(", "))
    return [m["model"], m["master"], m["settings"], f"{int(params):,}", m["heap"], m["native"], run_cell(m),
            f"passed; prepare {prepared} s", f"{steps} ({counted(int(rounds), 'round')})", peak, "-", "-",
            f"{trained} s (training)", "-", "; ".join(f"{int(b):,}" for b in received.split(", "))]


def plan_cells(planned, peak):
    """The planned process ("heap + native = total") and the peak's share of it; dashes without a plan or a peak."""
    if len(planned) != 2 or not peak:
        return ["-", "-"]
    total = planned[0] + planned[1]
    return [f"{planned[0]:,} + {planned[1]:,} = {total:,}", f"{peak / total:.2f}"]


def with_plan(row):
    """A row of the table before the plan's columns, given them: the planned heap and the plan in the ND4J cell."""
    if len(row) == len(HEADER):
        return row
    heap = integers(row[4]) if "(planned)" in row[4] else []
    native = re.search(r"\(plan ([\d,]+)\)", row[5])
    peaks = integers(row[PEAK])
    planned = heap[:1] + integers(native.group(1)) if heap and native else []
    return row[:PEAK + 1] + plan_cells(planned, peaks[0] if len(peaks) == 1 else 0) + row[PEAK + 1:]


def counted(n, noun):
    """"1 round", "2 rounds"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def run_cell(m):
    load = sorted({m["load_before"], m["load_after"]}, key=float)
    return f"{m['started']}, {m['machine']}, load {'-'.join(load)}"


def integers(cell):
    return [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*", cell)]


def derived(rows):
    """Factual lines computed from the rows: the bytes a round brings the driver against one averaged state."""
    lines = []
    for r in rows:
        row = dict(zip(HEADER, r))
        received = integers(row["driver_bytes_in a round"])
        params = integers(row["parameters"])
        if not received or not params:
            continue
        state = 12 * params[0]
        extra = sorted({b - state for b in received})
        more = f"{extra[0]:,}" + (f" to {extra[-1]:,}" if len(extra) > 1 else "")
        settings = "" if row["settings"] == "-" else f" ({row['settings']})"
        lines.append(f"- {row['model']} on {row['master']}{settings}: one averaged state is {state:,} bytes (12 a parameter: the "
                     f"parameters and Adam's two moments); the driver received {more} bytes more a round "
                     f"({100 * extra[-1] / state:.2f} %).")
    for r in rows:
        row = dict(zip(HEADER, r))
        heap = integers(row["driver heap MiB"])
        planned = re.search(r"\(plan ([\d,]+)\)", row["ND4J cap MiB (plan)"])
        cap = integers(planned.group(1)) if planned else []
        memory = re.search(r"([\d.]+) GiB", row["run"])
        if row["result"].startswith(("exit 0", "passed")) or not heap or not cap or not memory or "(planned)" not in row["driver heap MiB"]:
            continue
        plan = heap[0] + cap[0]
        lines.append(f"- {row['model']} on {row['master']} ({row['settings']}): its plan, heap {heap[0]:,} + ND4J "
                     f"{cap[0]:,} = {plan:,} MiB, is {plan / 1024 / float(memory.group(1)):.2f}x the machine's "
                     f"{memory.group(1)} GiB.")
    return lines


def main():
    path, dirs = sys.argv[1], sys.argv[2:]
    rows = [with_plan(r) for r in bench_section.table_rows(bench_section.read(path, NAME), "| model |")]
    for d in dirs:
        m = meta(d)
        row = yarn_row(d, m) if m["master"].startswith("yarn") else local_row(d, m)
        rows = [r for r in rows if r[:3] != row[:3]] + [row]
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    body = "\n".join([
        "## Production sizes: Transformer-base and -big",
        "",
        "`scripts/bench-production [MODEL[:KEY=VALUE,...] ...]`: `scripts/sparknmt train --conf conf/MODEL.conf --set "
        "train.max_steps=STEPS --set train.valid_bleu_sentences=0` (the paper's base and big models, Table 3) on the "
        "Multi30k recipe's prepared data (`conf/multi30k-en-de.conf`: 8k joint BPE, 1,500-token batches unless the row's "
        "settings say otherwise), the launcher's defaults otherwise: the driver's heap as `sparknmt memory` plans it "
        "(unless the settings give `SPARKNMT_DRIVER_MEMORY`), two workers in `local[2]` (train.workers = 0: the cores), "
        "k = 5. ND4J's cap is the launcher's (`SPARKNMT_NATIVE_MEMORY`, default 6g), beside the native memory the plan "
        "wants. Peak resident memory, wall and CPU time from GNU `/usr/bin/time -v`; steps and `driver_bytes_in` from "
        "the run's `metrics/train.jsonl`; the valid loss from `metrics/valid.jsonl`. The planned process is what "
        "`sparknmt memory` plans for local mode at the prepared batches' `data.max_tokens` (`SPARKNMT_DRIVER_MEMORY` + "
        "`SPARKNMT_NATIVE_MEMORY`), set beside the peak; base's rows from before 2026-12-06 05:00 UTC were planned at "
        "`conf/base.conf`'s `data.max_tokens`, the default 4,096, where the data held 1,500-token batches, and with "
        "the coefficients of then "
        "([docs/notes/2026-12-06-memory-plan.md](docs/notes/2026-12-06-memory-plan.md)). `YARN=1` adds the row of "
        "`ProductionSizeYarnIT`: `YARN_MODEL` (base, or big) on a MiniYARNCluster under the YARN preset's limits "
        "(executors of 8g heap + 6g overhead, ND4J capped at 5g, one core each, a client-mode driver with the planned "
        "heap; base as two executors for two rounds, big as one for one round), its wall time the training's and its "
        "peaks the executors' and the driver's (VmHWM).",
        "",
        "Each row is one run; the run column gives its date, machine and load average. When the load is above the "
        "cores, wall times say how runs compare, not how fast an idle host is; what these rows measure is whether a "
        "size fits and what it holds. Exit 52 is Spark's exit status for an `OutOfMemoryError`; signal 9 that the "
        "script did not send is the kernel's OOM killer (the machine ran out, not the JVM).",
        "",
        bench_section.table(HEADER, ALIGN, rows),
        "",
        *([*derived(rows), ""] if derived(rows) else []),
        "What was tried at these sizes and why: [docs/notes/2026-12-04-benchmark-history.md]"
        "(docs/notes/2026-12-04-benchmark-history.md#production-sizes).",
    ])
    bench_section.write(path, NAME, body)


main()
