#!/usr/bin/env python3
"""Distances inside a machine against hwloc's own NUMA view, on real exports.

For every real export of ../shared/data/hwloc-xml/ (and hwloc3-xml/, where
the build reads it) with PUs in at least two NUMA nodes, and a seeded sample
of the clusters' per-host exports (skipped when single-NUMA):

  * nearest P K, for a seeded sample of PUs P (logical indexes, PEs of the
    machine), with K the size of P's own NUMA node less one: the K answers
    are exactly the other PUs of P's own NUMA node, as hwloc-calc gives them
    (pu:P -I numa, then numa:N -I pu; a PU local to several NUMA nodes, as
    DDR and MCDRAM of one KNL cluster, takes the PUs local to all of them).
    On sub-NUMA-clustered servers (a NUMA node below an L3) this is the
    question nettopo once answered wrongly;
  * distance P Q to one PU Q of every other NUMA node follows hwloc's NUMA
    latency matrix (lstopo --distances, its first "latency" matrix between
    NUMANodes): a node hwloc puts strictly nearer to P's is strictly nearer
    (where hwloc's values tie, the tree may order them), and every remote one
    is farther than any PU of P's own node.

Usage: numa_oracle.py BIN_DIR PROJECT_ROOT [SHARED_DATA]. Exit 77 (skipped)
without hwloc-calc or the shared data.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

from real_exports import OracleFailure as Failure, check_exports, oracle_inputs, real_exports, run, sampled
import random

SAMPLE = sampled(3)  # PUs checked per export (seeded)





def calc(xml, *args):
    return run(["hwloc-calc", "-i", str(xml), "--disallowed", *args])


def numbers(text):
    return [int(x) for x in filter(None, text.split(","))]


def numa_matrix(xml):
    """hwloc's first NUMA latency matrix, by logical indexes, or None."""
    out = run(["lstopo-no-graphics", "-i", str(xml), "--disallowed", "--distances"])
    lines = out.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"Relative latency matrix .* between (\d+) NUMANodes", line) or re.match(
            r"Latency matrix .* between (\d+) NUMANodes", line)
        if not m:
            continue
        n = int(m.group(1))
        header = lines[k + 1].split()[1:]
        order = [int(x) for x in header]
        rows = {}
        for row in lines[k + 2:k + 2 + n]:
            cells = row.split()
            rows[int(cells[0])] = dict(zip(order, (int(v) for v in cells[1:])))
        return rows
    return None


def check_file(bin_dir, xml, rng):
    numa_count = int(calc(xml, "-N", "numa", "all"))
    if numa_count < 2:
        return "skipped: one NUMA node"
    query = [f"{bin_dir}/nettopo-query", "-q", "-i", str(xml)]
    pus = int(calc(xml, "-N", "pu", "all"))
    # Each NUMA node's PUs (logical), and each PU's NUMA nodes.
    numa_pus = {n: set(numbers(calc(xml, f"numa:{n}", "-I", "pu"))) for n in range(numa_count)}
    holding = [n for n in range(numa_count) if numa_pus[n]]
    if len(holding) < 2:
        return "skipped: one NUMA node holds PUs"
    matrix = numa_matrix(xml)
    checked = 0
    for pe in sorted(rng.sample(range(pus), min(SAMPLE, pus))):
        mine = [n for n in holding if pe in numa_pus[n]]
        if not mine:
            continue
        own = set.intersection(*(numa_pus[n] for n in mine)) - {pe}
        if own:
            out = run(query + ["--json", "nearest", str(pe), str(len(own))])
            got = {n["pe"] for n in json.loads(out)["nearest"]}
            if got != own:
                raise Failure(f"nearest {pe} {len(own)}: {sorted(got - own)[:8]} are not in PU "
                              f"{pe}'s NUMA node {mine}, {sorted(own - got)[:8]} of it are missing")
        if matrix is None:
            checked += 1
            continue
        home = mine[0]
        others = [n for n in holding if n not in mine and numa_pus[n] - numa_pus[home]]
        pairs = [(n, min(numa_pus[n] - numa_pus[home])) for n in others]
        if not pairs:
            checked += 1
            continue
        own_list = sorted(own)
        text = "".join(f"{pe} {q}\n" for q in own_list + [q for _, q in pairs])
        p = subprocess.run(query + ["distance", "--pairs", "-"], input=text, capture_output=True,
                           text=True)
        if p.returncode != 0:
            raise Failure(f"distance --pairs exited {p.returncode}: {p.stderr.strip()}")
        values = [float(x) for x in p.stdout.split()]
        inside = max(values[:len(own_list)], default=0.0)
        dist = values[len(own_list):]
        for (n1, q1), d1 in zip(pairs, dist):
            if d1 <= inside:
                raise Failure(f"PU {q1} of NUMA node {n1} is {d1} ns from PU {pe}, not farther "
                              f"than its own NUMA node's PUs ({inside} ns)")
            for (n2, q2), d2 in zip(pairs, dist):
                h1, h2 = matrix[home][n1], matrix[home][n2]
                if h1 < h2 and not d1 < d2:
                    raise Failure(f"from PU {pe} (NUMA {home}): hwloc gives NUMA {n1} {h1} and "
                                  f"{n2} {h2}, nettopo PU {q1} {d1} ns and PU {q2} {d2} ns")
        checked += 1
    return f"ok ({checked} PUs, {len(holding)} NUMA nodes with PUs" + (
        ", hwloc's NUMA matrix)" if matrix else ", no matrix)")


def main():
    inputs = oracle_inputs(__doc__.strip().splitlines()[-2], ["hwloc-calc", "lstopo-no-graphics"])
    if isinstance(inputs, int):
        return inputs
    bin_dir, data = inputs
    rng = random.Random(26)
    files = real_exports(data, rng, 4)
    return check_exports(files, data, lambda xml: check_file(bin_dir, xml, rng), Failure,
                         "agree with hwloc's NUMA view")


if __name__ == "__main__":
    sys.exit(main())
