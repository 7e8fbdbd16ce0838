"""BENCHMARKS.md's sections that the bench-* scripts own, each between "<!-- bench-NAME -->" and
"<!-- /bench-NAME -->" markers (scripts/bench carries them over when it rewrites the file).

A writer builds its whole section from its own numbers: read() gives the section as it stands (to keep
the rows of earlier runs, as table_rows() reads them back), write() replaces it or appends it."""
import datetime
import os
import re
import sys


def _pattern(name):
    return re.compile(rf"^<!-- {re.escape(name)} -->\n(.*?)^<!-- /{re.escape(name)} -->$", re.M | re.S)


def read(path, name):
    """The section's text between its markers, or "" when the file or the section is missing."""
    try:
        text = open(path, encoding="utf-8").read()
    except FileNotFoundError:
        return ""
    m = _pattern(name).search(text)
    return m.group(1) if m else ""


def relative(text):
    """text with the paths into this checkout written from its root, and those into the shared folder beside it
    as ../shared/...: the page is read in other checkouts, on other machines."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for checkout in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        shared = os.path.join(os.path.dirname(checkout), "shared")
        prefix = r"(?:file:(?://)?)?"
        text = re.sub(rf"{prefix}(?:{re.escape(checkout)}/\.\./shared|{re.escape(shared)})(?=/)", "../shared", text)
        text = re.sub(rf"{prefix}{re.escape(checkout)}/", "", text)
    return text


def write(path, name, body):
    """Puts body (without markers) between the section's markers, appending the section when it is missing; paths
    as relative() writes them."""
    section = f"<!-- {name} -->\n{relative(body).rstrip()}\n<!-- /{name} -->"
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else "# Benchmarks\n"
    pattern = _pattern(name)
    text = pattern.sub(lambda _: section, text, count=1) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section + "\n"
    open(path, "w", encoding="utf-8").write(text)


def table_rows(body, header):
    """The rows of the markdown table whose header line starts with header, each a list of its cells (no cell
    may hold a "|")."""
    rows, inside = [], False
    for line in body.splitlines():
        if line.startswith(header):
            inside = True
        elif inside and line.startswith("|"):
            if not set(line) <= set("|-: "):
                rows.append([cell.strip() for cell in line.strip()[1:-1].split("|")])
        elif inside:
            break
    return rows


def table(header, align, rows):
    """A markdown table: header and align are lists of cells, rows lists of lists."""
    return "\n".join(["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |",
                      *("| " + " | ".join(r) + " |" for r in rows)])


def machine():
    """This machine in a few words: cores, CPU and memory, as the other sections say it."""
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    mem = next((int(line.split()[1]) / 1048576 for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0)
    return f"{os.cpu_count()} cores ({cpu}), {mem:.1f} GiB"


def now():
    return f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"


def spread(values):
    """(max - min) / min in per cent."""
    return 100 * (max(values) - min(values)) / min(values)


def pyplot(script, benchmarks):
    """matplotlib's pyplot drawing into files; exits naming the package when it is missing (the report, already
    written to benchmarks, stands without its plot)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"{script}: no plot (apt-get install -y python3-matplotlib); {benchmarks} written")
    return plt
