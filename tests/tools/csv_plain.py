#!/usr/bin/env python3
"""Every --csv output is plain CSV (RFC 4180, lines ending in LF), read back
by Python's csv module: a heading line of unique snake_case names, then rows
of as many fields, quoted where a field holds a comma, a quote or a line
break; no comment line unless --csv-comments asks for the header as '#'
lines first (and then the CSV after them is the same).

Outputs: the golden cases that ask --csv (tests/golden/cases.txt, pinned) and
nettopo-bench and nettopo-balance run here.
Usage: csv_plain.py BIN_DIR PROJECT_ROOT
"""
import csv
import io
import os
import pathlib
import re
import subprocess
import sys

bin_dir = pathlib.Path(sys.argv[1]).resolve()
root = pathlib.Path(sys.argv[2]).resolve()
failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


def run(*args, code=0):
    env = dict(os.environ, LC_ALL="C")
    env.pop("NETTOPO_ARCHIVE", None)
    r = subprocess.run([str(bin_dir / args[0]), *args[1:]], cwd=root, env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != code:
        fail(f"{' '.join(args)}: exit {r.returncode}, expected {code}: {r.stderr.strip()}")
    return r.stdout


def rows_of(text, where, numeric=()):
    """The rows of a plain CSV text, checked; [] when it is not one."""
    if not text:
        fail(f"{where}: no output")
        return []
    if any(line.startswith("#") for line in text.splitlines()):
        fail(f"{where}: a comment line in plain CSV")
    if not text.endswith("\n") or "\r" in text:
        fail(f"{where}: lines do not all end in LF")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    heading = rows[0]
    if len(set(heading)) != len(heading) or not all(re.fullmatch(r"[a-z][a-z0-9_]*", h)
                                                    for h in heading):
        fail(f"{where}: the heading is not unique snake_case names: {heading}")
    if len(rows) < 2:
        fail(f"{where}: no row after the heading")
    for n, row in enumerate(rows[1:], 2):
        if len(row) != len(heading):
            fail(f"{where}, row {n}: {len(row)} fields, the heading has {len(heading)}: {row}")
            continue
        for column in numeric:
            value = row[heading.index(column)]
            try:
                float(value)
            except ValueError:
                if value != "":  # empty: not measured
                    fail(f"{where}, row {n}: {column} '{value}' is not a number")
    print(f"ok   {where}: heading and {len(rows) - 1} row(s) of {len(heading)} fields")
    return rows


def commented(plain_args, where, same=True):
    """--csv-comments: '#' lines first, then the same CSV (when the run is reproducible)."""
    plain = run(*plain_args)
    text = run(*plain_args, "--csv-comments")
    lines = text.splitlines(keepends=True)
    comments = [l for l in lines if l.startswith("#")]
    rest = "".join(lines[len(comments):])
    if not comments or any(l.startswith("#") for l in lines[len(comments):]):
        fail(f"{where} --csv-comments: expected '#' lines first, and only first")
    if not comments or not comments[0].startswith("# "):
        return
    if same and rest != plain:
        fail(f"{where} --csv-comments: the CSV after the comments differs from plain --csv")
    rows_of(rest, f"{where} --csv-comments")
    print(f"ok   {where} --csv-comments: {len(comments)} comment line(s) first")


# --- golden cases that ask --csv (their pinned outputs) ----------------------------
golden = root / "tests" / "golden"
csv_cases = 0
for line in (golden / "cases.txt").read_text().splitlines():
    if line.strip() and not line.lstrip().startswith("#"):
        name, code, command = (f.strip() for f in line.split("|", 2))
        if "--csv" in command.split() and code == "0":
            rows_of((golden / "expected" / f"{name}.txt").read_text(), f"golden {name}")
            csv_cases += 1
if csv_cases < 2:
    fail(f"only {csv_cases} golden case(s) ask --csv: expected the balance ones")

# --- nettopo-bench ----------------------------------------------------------------------
timed = ("num_machines", "items", "repetitions", "median_ns", "min_ns", "max_ns")
bench = ["nettopo-bench", "proximity", "--preset", "tree-M", "-r", "2", "--queries", "100", "--csv"]
rows = rows_of(run(*bench), "nettopo-bench proximity --csv", timed)
# The note holds a comma: quoted, it reads back as one field.
if rows and not any("," in row[-1] for row in rows[1:]):
    fail("nettopo-bench proximity --csv: expected a note with a comma, quoted")
rows_of(run("nettopo-bench", "lca", "--degrees", "2", "2", "--warmup", "1", "--rounds", "4",
            "--outer", "2", "--csv"), "nettopo-bench lca --csv", timed)
commented(bench, "nettopo-bench proximity", same=False)
run("nettopo-bench", "proximity", "--preset", "tree-M", "--csv-comments", code=2)

# --- nettopo-balance ----------------------------------------------------------------------
compare = ["nettopo-balance", "--workload", "smartlb-50", "--strategy", "greedy,packdrop",
           "--seeds", "2", "--decision-time", "none", "-q", "--csv"]
rows_of(run(*compare), "nettopo-balance --workload --csv", ("total_seconds", "speedup", "steps"))
commented(compare, "nettopo-balance --workload")
inputs = "tests/golden/inputs"
once = ["nettopo-balance", "-i", f"{inputs}/fig9b.topo", "--tasks", f"{inputs}/balance/tasks.csv",
        "--graph", f"{inputs}/balance/graph.csv", "--mapping", f"{inputs}/balance/mapping.csv",
        "--strategy", "refine", "--decision-time", "none", "-q", "--csv"]
rows_of(run(*once), "nettopo-balance --tasks --csv", ("max_avg_before", "migrations"))
commented(once, "nettopo-balance --tasks")
run("nettopo-balance", "--workload", "smartlb-50", "--csv-comments", code=2)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("every --csv output is plain CSV")
